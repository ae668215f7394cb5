package cadence_test

import (
	"fmt"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// benchSnapshot is a run awaiting one tool result, with n turns of
// history, the last an assistant turn calling c1.
func benchSnapshot(n int) (contract.RunSnapshot, contract.ToolCall) {
	call := contract.ToolCall{ID: "c1", Name: "echo", Arguments: `{"x":1}`}
	var h contract.History
	for i := range n - 1 {
		t := contract.UserText(fmt.Sprintf("turn %d", i))
		t.Tokens = 8
		h = h.Append(t)
	}
	h = h.Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(call)}, Tokens: 10})
	s := cadence.InitialSnapshot("bench")
	s.RunID, s.Phase, s.History, s.Turns = "r1", contract.PhaseAwaitingTools, h, 1
	s.Pending = []contract.PendingCall{{Call: call, Tool: contract.ToolDescriptor{Name: "echo"}, State: contract.CallStarted}}
	return s, call
}

// BenchmarkStep measures a tool_settled that closes the batch and leads to
// the next invoke_model: its cost must not grow with history.
func BenchmarkStep(b *testing.B) {
	rules := cadence.New(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}},
		Compaction: contract.CompactionPolicy{Disabled: true}})
	for _, n := range []int{10, 1000, 100000} {
		b.Run(fmt.Sprintf("history=%d", n), func(b *testing.B) {
			snap, call := benchSnapshot(n)
			sig := contract.ToolSettled{CallID: call.ID, Outcome: contract.ToolOutcome{Content: "ok"}, At: 5}
			b.ReportAllocs()
			for b.Loop() {
				next, effects, err := rules.Step(snap, sig)
				if err != nil || next.Phase != contract.PhaseAwaitingModel || len(effects) != 3 {
					b.Fatalf("phase %s, %d effects", next.Phase, len(effects))
				}
			}
		})
	}
}

// baselineState is the hand-written equivalent: a plain struct with an
// append-only slice, updated in place.
type baselineState struct {
	phase   contract.Phase
	history []contract.Turn
	pending []contract.PendingCall
	turns   int
	seq     uint64
}

// BenchmarkBaseline does the same state update by hand: answer the call,
// append the tool turn, move to awaiting the model. It reuses the slice's
// spare capacity, which an immutable snapshot cannot.
func BenchmarkBaseline(b *testing.B) {
	snap, call := benchSnapshot(1000)
	st := baselineState{phase: contract.PhaseAwaitingTools, history: snap.History.Turns(), turns: 1}
	base := len(st.history)
	st.history = append(make([]contract.Turn, 0, base+1), st.history...)
	b.ReportAllocs()
	for b.Loop() {
		st.history = st.history[:base]
		st.pending = append(st.pending[:0], contract.PendingCall{Call: call, State: contract.CallStarted})
		r := contract.ToolResult{CallID: call.ID, Name: call.Name, Content: "ok"}
		st.pending[0].State, st.pending[0].Result = contract.CallDone, &r
		st.history = append(st.history, contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(r)}})
		st.pending = st.pending[:0]
		st.turns++
		st.seq += 2
		st.phase = contract.PhaseAwaitingModel
	}
}
