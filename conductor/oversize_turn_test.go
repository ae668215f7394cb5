package conductor_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// windowModel is a model whose context holds window tokens: any request
// that carries more, a summary request among them, fails with an
// overflow, as real providers fail it, and is billed all the same.
// Others get a summary, or the next of its replies.
type windowModel struct {
	window  int
	mu      sync.Mutex
	replies []replyFunc
	calls   int // billed model calls of the run, overflowed ones among them
	asks    int // billed summary requests
}

func (m *windowModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	m.mu.Lock()
	var next replyFunc
	if req.Summary {
		m.asks++
		next = say("SUMMARY: the user asked for words")
	} else {
		m.calls++
		if len(m.replies) > 0 {
			next, m.replies = m.replies[0], m.replies[1:]
		} else {
			next = say("done")
		}
	}
	m.mu.Unlock()
	return func(yield func(turn.Chunk, error) bool) {
		if req.History.Tokens() > m.window {
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailContextOverflow, Status: 400, Message: fmt.Sprintf("%d tokens do not fit the window of %d", req.History.Tokens(), m.window)})
			return
		}
		chunks, err := next(ctx, req)
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
		if err != nil {
			yield(turn.Chunk{}, err)
		}
	}
}

// TestTurnLargerThanTheWindowFaultsOnce: a single turn larger than the
// model's whole context window can be neither cut nor summarised away,
// wherever it comes from: the user's input, a tool's result or the
// model's own reply in the run. The run faults with the overflow named, after at
// most one summary request and one overflowed model call, rather than
// compacting and calling again until the turn cap, billed each time.
func TestTurnLargerThanTheWindowFaultsOnce(t *testing.T) {
	const window = 400
	huge := strings.Repeat("word ", 3*window)
	tests := []struct {
		name string
		// earlier, when set, is a first run that leaves history behind.
		earlier string
		input   string
		replies []replyFunc
		// calls and asks are the billed model calls and summary requests
		// the run may make at most.
		calls, asks int
		// settles says the large turn can be condensed away.
		settles bool
	}{
		{name: "input", input: huge, calls: 1, asks: 0},
		{name: "input after history", earlier: "hello", input: huge, calls: 1, asks: 1},
		{name: "tool result", input: "echo it", replies: []replyFunc{callTools(call{"c1", "echo", fmt.Sprintf(`{"text":%q}`, huge)})}, calls: 2, asks: 1},
		{name: "reply with a call", input: "write it", replies: []replyFunc{
			func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
				return []turn.Chunk{
					{Kind: turn.ChunkText, Text: huge},
					{Kind: turn.ChunkToolCallStart, CallID: "c1", Name: "echo"},
					{Kind: turn.ChunkToolCallArgs, Text: `{"text":"ok"}`},
					{Kind: turn.ChunkToolCallEnd},
					{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
				}, nil
			},
		}, calls: 2, asks: 1},
		// An earlier run's reply is no longer among the turns kept: the
		// summary prompt clips it, the summary replaces it, and the run
		// goes on.
		{name: "reply of an earlier run", earlier: "write it", replies: []replyFunc{say(huge)}, input: "and now?", calls: 1, asks: 1, settles: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &windowModel{window: window, replies: tt.replies}
			cfg := contract.AgentConfig{Compaction: contract.CompactionPolicy{ContextWindow: window, TriggerRatio: 0.5, KeepRecent: 1}}
			a := newAgent(t, cfg, testDeps(m, toolBox(t, echoTool(t))))
			if tt.earlier != "" {
				if _, err := a.Submit(ctxT(t), conductor.Text(tt.earlier)); err != nil {
					t.Fatalf("earlier run: %v", err)
				}
				m.mu.Lock()
				m.calls = 0
				m.mu.Unlock()
			}
			snap, err := a.Submit(ctxT(t), conductor.Text(tt.input))
			var re *contract.RunError
			switch {
			case tt.settles:
				if err != nil || snap.Phase != contract.PhaseSettled {
					t.Fatalf("err %v (phase %s), want the run settled", err, snap.Phase)
				}
			case !errors.As(err, &re) || re.Kind != contract.KindModel || snap.Phase != contract.PhaseFaulted || !strings.Contains(err.Error(), "context_overflow"):
				t.Fatalf("err %v (phase %s), want the run faulted with the overflow named", err, snap.Phase)
			}
			checkWellFormed(t, snap)
			m.mu.Lock()
			defer m.mu.Unlock()
			if m.calls > tt.calls || m.asks > tt.asks {
				t.Errorf("billed %d model calls and %d summary requests, want at most %d and %d", m.calls, m.asks, tt.calls, tt.asks)
			}
		})
	}
}
