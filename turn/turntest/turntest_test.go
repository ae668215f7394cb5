package turntest_test

import (
	"context"
	"iter"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/turntest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// attempt is one call of the reference provider: chunks, then err, or a
// hang until the context ends.
type attempt struct {
	chunks []turn.Chunk
	err    error
	hang   bool
}

// reference plays attempts in order, repeating the last: the smallest
// provider that passes the suite, written from the case table alone.
type reference struct {
	mu    sync.Mutex
	n     int
	plays []attempt
}

func (r *reference) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	r.mu.Lock()
	a := r.plays[min(r.n, len(r.plays)-1)]
	r.n++
	r.mu.Unlock()
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range a.chunks {
			if !yield(c, nil) {
				return
			}
		}
		switch {
		case a.err != nil:
			yield(turn.Chunk{}, a.err)
		case a.hang:
			<-ctx.Done()
			yield(turn.Chunk{}, ctx.Err())
		}
	}
}

func text(s string) turn.Chunk { return turn.Chunk{Kind: turn.ChunkText, Text: s} }

func stop(s contract.StopReason) turn.Chunk { return turn.Chunk{Kind: turn.ChunkStop, Stop: s} }

func call(i int, id, args string) []turn.Chunk {
	return []turn.Chunk{
		{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: "get_weather"},
		{Kind: turn.ChunkToolCallArgs, Index: i, Text: args},
		{Kind: turn.ChunkToolCallEnd, Index: i},
	}
}

func cat(parts ...[]turn.Chunk) []turn.Chunk {
	var out []turn.Chunk
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var hello = attempt{chunks: []turn.Chunk{text("Hello, "), text("world."), stop(contract.StopEndTurn)}}

var referencePlays = map[turntest.Case][]attempt{
	turntest.CaseText:               {{chunks: []turn.Chunk{text("Hello, "), text("world."), {Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 10, OutputTokens: 5}}, stop(contract.StopEndTurn)}}},
	turntest.CaseTools:              {{chunks: cat(call(0, "call_1", `{"city":"Paris"}`), []turn.Chunk{stop(contract.StopToolUse)})}},
	turntest.CaseParallelTools:      {{chunks: cat(call(0, "call_1", `{"city":"Paris"}`), call(1, "call_2", `{"city":"Tokyo"}`), []turn.Chunk{stop(contract.StopToolUse)})}},
	turntest.CaseThinking:           {{chunks: []turn.Chunk{{Kind: turn.ChunkThinking, Text: "Let me think."}, {Kind: turn.ChunkThinking, Signature: "sig-1"}, text("Done."), stop(contract.StopEndTurn)}}},
	turntest.CaseUsage:              {{chunks: []turn.Chunk{text("Hi."), {Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 100, OutputTokens: 20, CachedTokens: 30}}, stop(contract.StopEndTurn)}}},
	turntest.CaseErrorFrame:         {{chunks: []turn.Chunk{text("Hel")}, err: &turn.ProviderError{Failure: contract.FailServer, Message: "overloaded"}}},
	turntest.CaseRateLimited:        {{err: &turn.ProviderError{Failure: contract.FailRateLimited, Status: 429}}, hello},
	turntest.CaseServerErrorThenOK:  {{err: &turn.ProviderError{Failure: contract.FailServer, Status: 500}}, hello},
	turntest.CaseCutMidToolCall:     {{chunks: call(0, "call_1", `{"city":`)[:2]}},
	turntest.CaseMalformedArguments: {{chunks: cat(call(0, "call_1", `{"city": "Paris"`), []turn.Chunk{stop(contract.StopToolUse)})}},
	turntest.CaseMaxTokensMidCall:   {{chunks: cat(call(0, "call_1", `{"city": "Par`), []turn.Chunk{stop(contract.StopMaxTokens)})}},
	turntest.CaseNeverEnds:          {{chunks: []turn.Chunk{text("Hello")}, hang: true}},
	turntest.CaseSplitCharacters: {{chunks: cat(
		[]turn.Chunk{text("Gr\xc3"), text("\xbc\xc3"), text("\x9fe aus \xe6\x9d"), text("\xb1\xe4\xba"), text("\xac.")},
		call(0, "call_1", "{\"city\":\"Z\xc3\xbcrich\"}"), []turn.Chunk{stop(contract.StopToolUse)})}},
	turntest.CaseCutAfterStop: {{chunks: hello.chunks, err: &turn.ProviderError{Failure: contract.FailStream, Message: "unexpected EOF"}}},
	turntest.CaseResponse:     {{chunks: append([]turn.Chunk{{Kind: turn.ChunkResponse, Name: turntest.ResponseModel, Text: turntest.ResponseID}}, hello.chunks...)}},
}

func TestReferenceProviderPasses(t *testing.T) {
	turntest.Run(t, func(t *testing.T, c turntest.Case) (turn.Provider, bool) {
		plays, ok := referencePlays[c]
		if !ok {
			t.Fatalf("no reference play for case %s", c)
		}
		return &reference{plays: plays}, true
	})
}

func TestUnsupportedCasesSkip(t *testing.T) {
	turntest.Run(t, func(t *testing.T, c turntest.Case) (turn.Provider, bool) {
		if c == turntest.CaseThinking {
			return nil, false
		}
		return &reference{plays: referencePlays[c]}, true
	})
}

func TestRequest(t *testing.T) {
	if r := turntest.Request(turntest.CaseThinking); r.Thinking != contract.ThinkingLow || r.Tools[0].Name != "get_weather" {
		t.Errorf("thinking request %+v", r)
	}
	if r := turntest.Request(turntest.CaseText); r.Thinking != contract.ThinkingOff || r.History.Len() != 1 {
		t.Errorf("text request %+v", r)
	}
}
