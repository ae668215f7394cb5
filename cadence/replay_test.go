package cadence_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func echoRules() *cadence.Rules {
	return cadence.New(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}}})
}

func callReply(id string) contract.ModelReplied {
	return contract.ModelReplied{Reply: contract.Turn{Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: id, Name: "echo", Arguments: `{}`})}}, At: 2}
}

// recordSession steps the signals and returns the persisted records.
func recordSession(t *testing.T, r *cadence.Rules, sigs ...contract.Signal) (contract.RunSnapshot, []contract.Record) {
	t.Helper()
	s := cadence.InitialSnapshot("s1")
	var recs []contract.Record
	for _, sig := range sigs {
		var effects []contract.Effect
		var err error
		if s, effects, err = r.Step(s, sig); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, effects[0].(*contract.Persist).Record)
	}
	return s, recs
}

func session() []contract.Signal {
	return []contract.Signal{
		contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText("hi")}, At: 1},
		callReply("c1"),
		contract.ToolSettled{CallID: "c1", Outcome: contract.ToolOutcome{Content: "ok"}, At: 3},
		contract.ModelReplied{Reply: contract.Turn{Blocks: []contract.Block{contract.TextBlock("done")}}, At: 4},
	}
}

func TestReplayNamesFirstDivergentStep(t *testing.T) {
	want, recs := recordSession(t, echoRules(), session()...)
	got, err := echoRules().Replay(cadence.InitialSnapshot("s1"), recs)
	if err != nil {
		t.Fatalf("clean replay: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	// Rules without the echo tool offer the model no tools: step 1 is the
	// first to differ.
	other := cadence.New(contract.AgentConfig{Model: "scripted"})
	_, err = other.Replay(cadence.InitialSnapshot("s1"), recs)
	var d *cadence.Divergence
	if !errors.As(err, &d) || !errors.Is(err, cadence.ErrNondeterministic) {
		t.Fatalf("replay under other rules: %v, want a Divergence", err)
	}
	wantMsg := `cadence: nondeterministic step 1: recorded "publish run_started#1; invoke_model turn=1 history=1 tokens=7 tools=1", replayed "publish run_started#1; invoke_model turn=1 history=1 tokens=7 tools=0"`
	if diff := cmp.Diff(wantMsg, err.Error()); diff != "" {
		t.Errorf("message mismatch (-want +got):\n%s", diff)
	}
	// Fold does not compare effects; it stops only at a rejected record.
	var rej *cadence.Rejection
	if _, err := other.Fold(cadence.InitialSnapshot("s1"), recs); !errors.Is(err, cadence.ErrRejectedRecord) || !errors.As(err, &rej) || rej.Signal != contract.SigToolSettled {
		t.Errorf("Fold under other rules: %v, want ErrRejectedRecord (c1 was never dispatched)", err)
	}
	tampered := append([]contract.Record(nil), recs...)
	tampered[3].Step = 9
	if _, err := echoRules().Replay(cadence.InitialSnapshot("s1"), tampered); err == nil || err.Error() != `cadence: nondeterministic step 9: recorded "step 9", replayed "step 4"` {
		t.Errorf("renumbered record: %v", err)
	}
}

// Steps yields every step in order, each starting where the one before
// ended, with the record its effects persist; breaking out stops it.
func TestStepsYieldsEveryStep(t *testing.T) {
	want, recs := recordSession(t, echoRules(), session()...)
	s := cadence.InitialSnapshot("s1")
	var got []contract.Record
	for f, err := range echoRules().Steps(s, recs) {
		if err != nil {
			t.Fatal(err)
		}
		if !f.Before.History.Equal(s.History) || f.Before.Steps != s.Steps {
			t.Fatalf("step %d does not start where the one before ended", f.Record.Step)
		}
		if p := f.Effects[0].(*contract.Persist).Record; p.Step != f.Persisted.Step || p.Effects != f.Persisted.Effects {
			t.Fatalf("step %d: Persisted %+v is not the first effect's record %+v", f.Record.Step, f.Persisted, p)
		}
		got = append(got, f.Persisted)
		s = f.After
	}
	if diff := cmp.Diff(recs, got); diff != "" {
		t.Errorf("persisted records mismatch (-want +got):\n%s", diff)
	}
	if !s.History.Equal(want.History) || s.Phase != want.Phase {
		t.Errorf("folded to %s, want %s", s.Phase, want.Phase)
	}
	n := 0
	for range echoRules().Steps(cadence.InitialSnapshot("s1"), recs) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("%d steps after break", n)
	}
}

func ExampleRules_Step() {
	rules := cadence.New(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}}, Revision: contract.CurrentRevision})
	snap := cadence.InitialSnapshot("session-1")
	for _, sig := range session() {
		next, effects, err := rules.Step(snap, sig)
		if err != nil {
			fmt.Println(err)
			continue
		}
		snap = next
		fmt.Printf("%s -> %s: %s\n", sig.SignalKind(), snap.Phase, cadence.Summarize(effects))
	}
	// Output:
	// submitted -> awaiting_model: publish run_started#1; publish turn_started#2; invoke_model turn=1 history=1 tokens=7 tools=1
	// model_replied -> awaiting_tools: publish turn_completed#3; publish tool_call#4; publish tool_started#5; run_tool c1 echo
	// tool_settled -> awaiting_model: publish tool_result#6; publish turn_started#7; invoke_model turn=2 history=3 tokens=23 tools=1
	// model_replied -> settled: publish turn_completed#8; publish run_settled#9
}

func ExampleRules_Advance() {
	rules := cadence.New(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}}, Revision: contract.CurrentRevision})
	snap := cadence.InitialSnapshot("session-1")
	for _, sig := range append(session()[:2], contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant}, At: 9}) {
		effects, err := rules.Advance(&snap, sig)
		if err != nil {
			// Refused: snap is as it was.
			fmt.Println(snap.Phase, err)
			continue
		}
		fmt.Printf("%s -> %s: %d effects\n", sig.SignalKind(), snap.Phase, len(effects))
	}
	// Output:
	// submitted -> awaiting_model: 4 effects
	// model_replied -> awaiting_tools: 5 effects
	// awaiting_tools cadence: model_replied rejected in phase awaiting_tools: model_replied does not fit a run awaiting tools
}

// A host that performs each step's effects before its next step works
// in one Scratch; what it keeps of a step (here the events, as a hub
// would) it copies before the scratch serves the next.
func ExampleRules_AdvanceIn() {
	rules := cadence.New(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}}, Revision: contract.CurrentRevision})
	snap := cadence.InitialSnapshot("session-1")
	var sc cadence.Scratch
	var kept []contract.RunEvent
	for _, sig := range session() {
		effects, err := rules.AdvanceIn(&sc, &snap, sig)
		if err != nil {
			fmt.Println(err)
			continue
		}
		for _, e := range effects {
			if p, ok := e.(*contract.Publish); ok {
				kept = append(kept, p.Event)
			}
		}
	}
	sc.Clear()
	fmt.Println(snap.Phase, len(kept), "events")
	for _, ev := range kept {
		if ev.Kind == contract.EvTurnCompleted {
			// The first was published two steps before the scratch's last use.
			fmt.Printf("#%d %s calls=%d text=%q\n", ev.Seq, ev.Kind, len(ev.Turn.Calls()), ev.Turn.Text())
		}
	}
	// Output:
	// settled 9 events
	// #3 turn_completed calls=1 text=""
	// #8 turn_completed calls=0 text="done"
}

func ExampleRules_Fold() {
	rules := echoRules()
	var records []contract.Record
	snap := cadence.InitialSnapshot("session-1")
	for _, sig := range session() {
		next, effects, err := rules.Step(snap, sig)
		if err != nil {
			fmt.Println(err)
			return
		}
		snap = next
		records = append(records, effects[0].(*contract.Persist).Record)
	}
	rebuilt, err := rules.Fold(cadence.InitialSnapshot("session-1"), records)
	fmt.Println(rebuilt.Phase, rebuilt.History.Len(), rebuilt.History.Equal(snap.History), err)
	// Output:
	// settled 4 true <nil>
}
