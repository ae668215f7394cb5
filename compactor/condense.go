package compactor

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/zeebo/blake3"
)

// Archive is what an archive marker turn names: the blake3-256 hashes (hex)
// of the canonical JSON of the first and the last turn a summary replaced,
// and how many turns it replaced. A store holding the session can find the
// original turns by them.
type Archive struct {
	First string
	Last  string
	Count int
}

// archiveFormat is the marker's text; the model reads it too, so it says
// what happened in words.
// The closing bracket stays out of the format so that parsing can read the
// last hash with %s, which stops only at spaces.
const archiveFormat = "[archive: the summary above replaced %d earlier turns; blake3-256 first=%s last=%s"

// String returns the marker text.
func (a Archive) String() string {
	return fmt.Sprintf(archiveFormat, a.Count, a.First, a.Last) + "]"
}

// ArchiveOf parses an archive marker turn written by Condense. It takes
// only the text Condense writes, so the archive it returns gives that
// text back (String): Sscanf alone would also take a signed or padded
// count, hashes in upper case and anything after the last hash.
func ArchiveOf(t contract.Turn) (Archive, bool) {
	if t.Mark != contract.MarkArchive {
		return Archive{}, false
	}
	whole := t.Text()
	text, ok := strings.CutSuffix(whole, "]")
	if !ok {
		return Archive{}, false
	}
	var a Archive
	n, err := fmt.Sscanf(text, archiveFormat, &a.Count, &a.First, &a.Last)
	if err != nil || n != 3 || a.Count < 1 || !isHash(a.First) || !isHash(a.Last) || a.String() != whole {
		return Archive{}, false
	}
	return a, true
}

// Condense returns the new history: a summary turn (RoleUser, MarkSummary,
// the summary text), then an archive marker turn (RoleUser, MarkArchive)
// naming the turns it replaced, then turns[cut:] unchanged. Both new turns
// carry their Estimate. A cut below 1 replaces nothing and returns a copy of
// turns; a cut past the end replaces them all.
func Condense(model string, turns []contract.Turn, cut int, summary string) []contract.Turn {
	return EstimatorFor(model, contract.CurrentRevision).Condense(turns, cut, summary)
}

// Condense is the package's Condense with the new turns counted by e.
func (e Estimator) Condense(turns []contract.Turn, cut int, summary string) []contract.Turn {
	cut = min(cut, len(turns))
	if cut < 1 {
		return append([]contract.Turn(nil), turns...)
	}
	arch := Archive{First: TurnHash(turns[0]), Last: TurnHash(turns[cut-1]), Count: cut}
	sum := contract.Turn{Role: contract.RoleUser, Mark: contract.MarkSummary, Blocks: []contract.Block{contract.TextBlock(summary)}}
	mark := contract.Turn{Role: contract.RoleUser, Mark: contract.MarkArchive, Blocks: []contract.Block{contract.TextBlock(arch.String())}}
	sum.Tokens = e.Turn(sum)
	mark.Tokens = e.Turn(mark)
	out := make([]contract.Turn, 0, 2+len(turns)-cut)
	out = append(out, sum, mark)
	return append(out, turns[cut:]...)
}

// TurnHash returns the hex blake3-256 hash of the turn's canonical JSON:
// fields in declaration order, no insignificant whitespace, no HTML
// escaping, as contract encodes turns.
func TurnHash(t contract.Turn) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// A Turn holds only strings, ints and pointers to such structs, so
	// encoding cannot fail.
	_ = enc.Encode(t)
	sum := blake3.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return hex.EncodeToString(sum[:])
}

// isHash reports whether s is a hash as TurnHash writes it: in lower
// case, so that it compares equal to the hash of the turn it names.
func isHash(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == blake3Size && hex.EncodeToString(b) == s
}

const blake3Size = 32
