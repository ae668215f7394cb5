package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
)

// TestDelegatedIDsCountAcrossALagNotice: each id the AG-UI projector
// gives a stream's frames places a resuming client right after the event
// it names, a lag notice standing among a delegate's events or naming no
// event (a Runner not ledger's) notwithstanding, as the projector counts
// across it. A thread's log repairs lag notices from the store, so its
// streams hold none today; the lookup does not count on that, as
// delegatedAt.after does not.
func TestDelegatedIDsCountAcrossALagNotice(t *testing.T) {
	child := func(seq uint64, kind contract.EventKind) contract.RunEvent {
		return contract.RunEvent{Seq: seq, SessionID: "t/2.0", RunID: "run_2", Subflow: []string{"call_d"}, Kind: kind, Call: &contract.ToolCall{ID: "c" + string(rune('0'+seq)), Name: "get_weather", Arguments: "{}"}}
	}
	events := []contract.RunEvent{
		{Seq: 1, SessionID: "t", RunID: "run_1", Kind: contract.EvRunStarted},
		{Seq: 2, SessionID: "t", RunID: "run_1", Kind: contract.EvSubflowStarted, Text: "t/2.0", Call: &contract.ToolCall{ID: "call_d", Name: "delegate_helper"}},
		child(1, contract.EvRunStarted),
		child(2, contract.EvToolCall),
		// A notice of a Runner not ledger's names no event.
		{SessionID: "t", RunID: "run_1", Kind: contract.EvLag, Missed: 1},
		child(3, contract.EvToolCall),
		child(4, contract.EvToolCall),
		{Seq: 3, SessionID: "t", RunID: "run_1", Kind: contract.EvRunSettled},
	}
	p := agui.NewProjector("t")
	want, got := map[string]int{}, map[string]int{}
	for i, ev := range events {
		for _, e := range p.Project(ev) {
			if e.ID == "" {
				continue
			}
			want[e.ID] = i + 1
			c, err := parseCursor(e.ID)
			if err != nil {
				t.Fatalf("id %q: %v", e.ID, err)
			}
			got[e.ID] = c.had(events)
		}
	}
	if _, ok := want["2+4"]; !ok {
		t.Fatalf("no id counts the delegate's events past the notice: %v", want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events had at each id (-projected +found):\n%s", diff)
	}
}
