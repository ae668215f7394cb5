package wire

import (
	"context"
	"iter"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// twinsModel plays a parent that hands "north" and "south" to two
// children at once. Each child says what it does and calls the weather
// tool; its second call answers once release closes, or, with no
// release, hangs: the server dies in it.
type twinsModel struct{ release <-chan struct{} }

func (m twinsModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		turns := req.History.Turns()
		answered := len(turns) > 0 && turns[len(turns)-1].Role == contract.RoleTool
		task := turns[0].Text()
		var chunks []turn.Chunk
		switch {
		case req.System == "" && !answered:
			for i, c := range [][2]string{{"call_a", "north"}, {"call_b", "south"}} {
				chunks = append(chunks,
					turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: c[0], Name: "delegate_helper"},
					turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: `{"task":"` + c[1] + `"}`},
					turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i})
			}
			chunks = append(chunks, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
		case req.System == "":
			chunks = []turn.Chunk{{Kind: turn.ChunkText, Text: "done"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
		case !answered:
			chunks = []turn.Chunk{
				{Kind: turn.ChunkText, Text: "On it: " + task},
				{Kind: turn.ChunkToolCallStart, CallID: "w1", Name: "get_weather"},
				{Kind: turn.ChunkToolCallArgs, Text: `{"city":"` + task + `"}`},
				{Kind: turn.ChunkToolCallEnd},
				{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
			}
		default:
			select {
			case <-m.release:
			case <-ctx.Done():
				yield(turn.Chunk{}, ctx.Err())
				return
			}
			chunks = []turn.Chunk{{Kind: turn.ChunkText, Text: "sunny in " + task}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
		}
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// twinLines are what a client shows of the child of call across the
// death, in order.
func twinLines(call, task string) []string {
	p := "[" + call + "] "
	return []string{
		p + "run_started <nil> " + task,
		p + "turn_started <nil> <nil>",
		p + "turn_completed <nil> On it: " + task,
		p + "tool_call w1 <nil>",
		p + "tool_started w1 <nil>",
		p + "tool_result w1 <nil>",
		p + "turn_started <nil> <nil>",
		p + "turn_completed <nil> sunny in " + task,
		p + "run_settled <nil> <nil>",
	}
}

// byChild splits a client's child lines by the child they are of.
func byChild(lines []string) map[string][]string {
	out := map[string][]string{}
	for _, l := range lines {
		call, _, _ := strings.Cut(l, " ")
		out[call] = append(out[call], l)
	}
	return out
}

// TestReconnectAfterTheServerDiesInTwoDelegatedRuns: as
// TestReconnectAfterTheServerDiesInADelegatedRun, with two children of
// the run at once: a client reconnecting from any id it was given,
// before the death or after, is shown each child's events once, in
// order. The second child begins once the first waits on its model
// (a before_tool hook holds its call), so that the live stream's order
// of their events is known.
// Before, a child's events from the store went right after the
// subflow_started that began it, before the second child's: the ids the
// live stream gave, which count from the newest event of the run's own,
// the second subflow_started, named other events there.
func TestReconnectAfterTheServerDiesInTwoDelegatedRuns(t *testing.T) {
	want := map[string][]string{"[call_a]": twinLines("call_a", "north"), "[call_b]": twinLines("call_b", "south")}
	shared := store.NewMemory()
	st := &dyingStore{Store: shared}
	var h atomic.Pointer[Handler]
	firstWaits := func(ctx context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
		for c.ID == "call_b" && !h.Load().logHas("t1", func(ev contract.RunEvent) bool {
			return ev.Kind == contract.EvTurnStarted && slices.Equal(ev.Subflow, []string{"call_a"}) && ev.Round == 2
		}) {
			select {
			case <-ctx.Done():
				return conductor.Verdict{}, ctx.Err()
			case <-time.After(time.Millisecond):
			}
		}
		return conductor.Verdict{}, nil
	}
	first := delegatingServerOf(t, st, ProtocolAGUI, twinsModel{}, func(a *conductor.Agent) Runner { return AgentRunner(a) }, firstWaits)
	h.Store(first.Config.Handler.(*Handler))
	resp := postTo(t, first.URL, runBody("t1", "weather?"))
	results := 0
	had := readSSEUntil(t, resp.Body, func(f sseData) bool {
		if strings.Contains(f.data, `"kind":"tool_result"`) && strings.Contains(f.data, `"toolCallId":"w1"`) {
			results++
		}
		return results == 2
	})
	st.die()
	resp.Body.Close()
	first.Close()
	if results != 2 {
		t.Fatalf("the first stream never showed both children's tool results: %v", had)
	}
	release := make(chan struct{})
	again := delegatingServerOf(t, shared, ProtocolAGUI, twinsModel{release: release}, func(a *conductor.Agent) Runner { return AgentRunner(a) })
	all := append(had, reconnectFrom(t, again.URL, had[len(had)-1].id, release)...)
	if diff := cmp.Diff(want, byChild(childLines(t, all))); diff != "" {
		t.Fatalf("reconnected while the children run again: their events mismatch (-want +got):\n%s", diff)
	}
	checkEveryCut(t, again.URL, all, func(got []string) string { return cmp.Diff(want, byChild(got)) })
}

// logHas reports whether the log of thread id, open, holds an event that
// has.
func (h *Handler) logHas(id string, has func(contract.RunEvent) bool) bool {
	h.mu.Lock()
	t := h.threads[id]
	h.mu.Unlock()
	if t == nil {
		return false
	}
	select {
	case <-t.ready:
	default:
		return false
	}
	events, _ := t.log.snapshot()
	return slices.ContainsFunc(events, has)
}
