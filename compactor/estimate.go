package compactor

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
	"github.com/tiktoken-go/tokenizer"
)

// Figures the estimate adds to the text it counts; the package doc says why.
const (
	// BytesPerToken is the divisor of the character fallback for unknown
	// models under rules revisions before contract.RevisionBoundedEstimates.
	BytesPerToken = 4
	// ASCIIBytesPerToken is the ASCII divisor of the character fallback
	// from contract.RevisionBoundedEstimates on.
	ASCIIBytesPerToken = 3
	// PerTurnOverhead is added once per turn for role and framing tokens.
	PerTurnOverhead = 4
	// PerBlockOverhead is added once per block.
	PerBlockOverhead = 2
	// ImageTokens is what one image counts: OpenAI's price of a 1024x1024
	// image at high detail, a middle figure across providers.
	ImageTokens = 765
	// RedactedThinkingTokens is what one redacted thinking block counts.
	// Its data is encrypted, so its length says little about the tokens
	// it stood for, and Anthropic bills thinking only while a tool loop
	// sends it back; a small figure keeps the block from counting nothing.
	RedactedThinkingTokens = 64
)

// Estimate returns the token estimate of one turn for the model under
// the current rules revision. Known model families are counted with their
// tiktoken encoding, others with the character fallback described in the
// package doc.
func Estimate(model string, t contract.Turn) int {
	return EstimatorFor(model, contract.CurrentRevision).Turn(t)
}

// BlockEstimate returns one block's share of a turn's estimate: a turn's
// Estimate is PerTurnOverhead plus the BlockEstimate of each of its
// blocks, so a worker can count a tool result on its own and the turn
// that gathers the results adds the counts up.
func BlockEstimate(model string, b contract.Block) int {
	return EstimatorFor(model, contract.CurrentRevision).Block(b)
}

// ResultEstimate is the BlockEstimate of a tool result block holding
// content, counted without making the block: a worker counts every
// result it brings.
func ResultEstimate(model, content string) int {
	return EstimatorFor(model, contract.CurrentRevision).Result(content)
}

// Estimator counts tokens for one model as one rules revision does. A
// recorded run replays under its own revision, so the counts its rules
// made while it ran come out the same forever, whatever fallback a later
// revision uses.
type Estimator struct {
	count func(string) int
}

// EstimatorFor returns the estimator of model under rules revision
// revision: from contract.RevisionBoundedEstimates on, a model with no
// known tokenizer gets the bounded character fallback, before it the
// bytes/4 one.
func EstimatorFor(model string, revision int) Estimator {
	return Estimator{count: counterFor(counterKey{model: model, bytesOnly: revision < contract.RevisionBoundedEstimates})}
}

// Turn returns the token estimate of one turn.
func (e Estimator) Turn(t contract.Turn) int {
	n := PerTurnOverhead
	for _, b := range t.Blocks {
		n += PerBlockOverhead + blockTokens(e.count, b)
	}
	return n
}

// Block returns one block's share of a turn's estimate.
func (e Estimator) Block(b contract.Block) int {
	return PerBlockOverhead + blockTokens(e.count, b)
}

// Result returns the Block estimate of a tool result holding content.
func (e Estimator) Result(content string) int {
	return PerBlockOverhead + e.count(content)
}

func blockTokens(count func(string) int, b contract.Block) int {
	switch b.Kind {
	case contract.BlockText, contract.BlockThinking:
		return count(b.Text)
	case contract.BlockToolCall:
		if b.Call == nil {
			return 0
		}
		return count(b.Call.Name) + count(b.Call.Arguments)
	case contract.BlockToolResult:
		if b.Result == nil {
			return 0
		}
		return count(b.Result.Content)
	case contract.BlockImage:
		return ImageTokens
	case contract.BlockRedactedThinking:
		return RedactedThinkingTokens
	default:
		// An unknown kind still reaches the model somehow; count what it holds.
		return count(b.Text)
	}
}

// byteTokens is the character fallback of revisions before
// contract.RevisionBoundedEstimates: about BytesPerToken bytes a token,
// rounded up.
func byteTokens(s string) int {
	return (len(s) + BytesPerToken - 1) / BytesPerToken
}

// boundedTokens is the character fallback from revision
// contract.RevisionBoundedEstimates on: each run of ASCII counts a token
// for every ASCIIBytesPerToken bytes, rounded up, and every other byte a
// token of its own, since a byte-level tokenizer may need one for each
// byte of a script its vocabulary hardly covers.
func boundedTokens(s string) int {
	n, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] < utf8.RuneSelf {
			run++
			continue
		}
		n += (run+ASCIIBytesPerToken-1)/ASCIIBytesPerToken + 1
		run = 0
	}
	return n + (run+ASCIIBytesPerToken-1)/ASCIIBytesPerToken
}

// counterKey names a counter: the model and whether its fallback is the
// bytes/4 one of earlier revisions.
type counterKey struct {
	model     string
	bytesOnly bool
}

// counterFor returns the text counter for the model's encoding, made
// once for each of the first maxCounters models asked about: every turn
// and tool result is counted, and working out the encoding from the
// model's name each time showed in profiles.
func counterFor(k counterKey) func(string) int {
	if c, ok := counters.Load(k); ok {
		return c.(func(string) int)
	}
	c := newCounter(k)
	if counted.Add(1) <= maxCounters {
		counters.Store(k, c)
	}
	return c
}

// counters holds the counters made, by key.
var (
	counters sync.Map
	counted  atomic.Int64
)

// maxCounters bounds the models whose counters are kept: a process
// talks to a few, and model names come from configuration.
const maxCounters = 64

func newCounter(k counterKey) func(string) int {
	fallback := boundedTokens
	if k.bytesOnly {
		fallback = byteTokens
	}
	enc, ok := encodingFor(k.model)
	if !ok {
		return fallback
	}
	c := codecFor(enc)
	if c == nil {
		return fallback
	}
	exact := func(s string) int {
		if s == "" {
			return 0
		}
		n, err := c.Count(s)
		if err != nil {
			return fallback(s)
		}
		return n
	}
	return func(s string) int { return sampled(exact, fallback, s) }
}

// Tokenizing costs about a microsecond a byte, and a step estimates every
// turn it appends, so a long text is counted exactly only at its ends.
const (
	// ExactLimit is the longest text, in bytes, counted exactly.
	ExactLimit = 8 << 10
	sampleSize = ExactLimit / 2
)

// sampled counts s exactly when it is at most ExactLimit bytes; otherwise
// it counts the first and the last sampleSize bytes exactly and scales the
// middle by the bytes-per-token ratio measured on them.
func sampled(exact, fallback func(string) int, s string) int {
	if len(s) <= ExactLimit {
		return exact(s)
	}
	headEnd := runeStart(s, sampleSize)
	tailStart := runeStart(s, len(s)-sampleSize)
	head, middle, tail := s[:headEnd], s[headEnd:tailStart], s[tailStart:]
	counted := exact(head) + exact(tail)
	sample := len(head) + len(tail)
	if counted == 0 || sample == 0 {
		return fallback(s)
	}
	return counted + (len(middle)*counted+sample-1)/sample
}

// runeStart moves i back to the start of the rune it falls in.
func runeStart(s string, i int) int {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// encodingFor maps a model name to its tiktoken encoding.
func encodingFor(model string) (tokenizer.Encoding, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	family := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(m, p) && (len(m) == len(p) || m[len(p)] == '-' || m[len(p)] == '.') {
				return true
			}
		}
		return false
	}
	switch {
	// gpt-4o and gpt-4.1 before gpt-4: they share its prefix.
	case family("gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4"),
		strings.HasPrefix(m, "gpt-5"):
		return tokenizer.O200kBase, true
	case family("gpt-4", "gpt-3.5", "gpt-35"):
		return tokenizer.Cl100kBase, true
	case strings.HasPrefix(m, "claude-"):
		return tokenizer.Cl100kBase, true
	}
	return "", false
}
