package conductor

import (
	"strings"
	"unicode/utf8"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// Input is what a host sends: text, or whole user turns, and tools for
// this run only, which shadow the agent's tools of the same name.
type Input struct {
	Text  string
	Turns []contract.Turn
	Tools []dispatch.Tool
}

// Text returns an Input holding one user message.
func Text(s string) Input { return Input{Text: s} }

// turns returns the input as turns, each carrying its token estimate:
// counted here, on the host's goroutine, the signal carries
// it and neither the agent's loop nor a replay or resume tokenizes input.
// A count the host set is not trusted.
func (in Input) turns(est compactor.Estimator) []contract.Turn {
	turns := validTurns(in.Turns)
	out := make([]contract.Turn, len(turns), len(turns)+1)
	copy(out, turns)
	if in.Text != "" {
		out = append(out, contract.UserText(validText(in.Text)))
	}
	for i := range out {
		out[i].Tokens = est.Turn(out[i])
	}
	return out
}

// check refuses input turns holding what only the runtime writes: tool
// calls and results, which nothing would pair, and whose calls no
// compaction could cut past; marks of the runtime's own turns; and the
// flag of a failed run's turns. A host's input is text and images.
func (in Input) check() error {
	for i, t := range in.Turns {
		if t.Mark != contract.MarkNone {
			return contract.NewError(contract.KindConfig, "input turn %d has the runtime's mark %q", i, t.Mark)
		}
		if t.Excluded {
			return contract.NewError(contract.KindConfig, "input turn %d is marked excluded, as a failed run's turns are", i)
		}
		for _, b := range t.Blocks {
			if b.Kind != contract.BlockText && b.Kind != contract.BlockImage {
				return contract.NewError(contract.KindConfig, "input turn %d holds a %s block: input is text and images", i, b.Kind)
			}
		}
	}
	return nil
}

// validText replaces bytes that are not UTF-8. The canonical encoding
// would do it on the way to the store anyway; doing it before a signal is
// made keeps the live state equal to the stored one.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// validTurns returns turns whose text is valid UTF-8, copying only what
// must change.
func validTurns(turns []contract.Turn) []contract.Turn {
	var out []contract.Turn
	for i, t := range turns {
		for j, b := range t.Blocks {
			if utf8.ValidString(b.Text) {
				continue
			}
			if out == nil {
				out = append([]contract.Turn(nil), turns...)
			}
			if &out[i].Blocks[0] == &turns[i].Blocks[0] {
				out[i].Blocks = append([]contract.Block(nil), t.Blocks...)
			}
			out[i].Blocks[j].Text = validText(b.Text)
		}
	}
	if out == nil {
		return turns
	}
	return out
}
