package wire

import (
	"context"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

// storedRunner's store holds the events stored; nothing else of it runs.
type storedRunner struct {
	failingRunner
	stored []contract.RunEvent
}

func (r storedRunner) EventsSince(_ context.Context, seq uint64) ([]contract.RunEvent, error) {
	var out []contract.RunEvent
	for _, ev := range r.stored {
		if ev.Seq > seq {
			out = append(out, ev)
		}
	}
	return out, nil
}

// A thread's history joins the stored events and its log at the log's
// first event of the thread's own run: a delegate's events, numbered by
// its own session, say nothing of where that is.
func TestHistoryJoinsStoreAndLog(t *testing.T) {
	ev := func(seq uint64, delta uint32, kind contract.EventKind, subflow ...string) contract.RunEvent {
		return contract.RunEvent{Seq: seq, Delta: delta, Kind: kind, Subflow: subflow}
	}
	stored := []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted),
		ev(2, 0, contract.EvToolCall),
		ev(3, 0, contract.EvToolCall),
		ev(4, 0, contract.EvTurnCompleted),
	}
	for _, tt := range []struct {
		name   string
		logged []contract.RunEvent
		want   []contract.RunEvent
	}{{
		name:   "committed first",
		logged: []contract.RunEvent{ev(4, 0, contract.EvTurnCompleted), ev(5, 0, contract.EvRunSettled)},
		want:   append(stored[:3:3], ev(4, 0, contract.EvTurnCompleted), ev(5, 0, contract.EvRunSettled)),
	}, {
		name:   "delta first",
		logged: []contract.RunEvent{ev(4, 1, contract.EvTextDelta), ev(5, 0, contract.EvTurnCompleted)},
		want:   append(stored[:4:4], ev(4, 1, contract.EvTextDelta), ev(5, 0, contract.EvTurnCompleted)),
	}, {
		// The runner picked its run up, and its model call streamed,
		// before the log subscribed: the call's deltas the log has lack
		// its start, so none of them is kept, and the turn's completion
		// carries the call whole.
		name:   "deltas after the call's first",
		logged: []contract.RunEvent{ev(4, 2, contract.EvTextDelta), ev(4, 3, contract.EvTextDelta), ev(5, 0, contract.EvTurnCompleted)},
		want:   append(stored[:4:4], ev(5, 0, contract.EvTurnCompleted)),
	}, {
		name:   "delegate first",
		logged: []contract.RunEvent{ev(2, 0, contract.EvRunSettled, "c1"), ev(5, 0, contract.EvToolResult)},
		want:   append(stored[:4:4], ev(2, 0, contract.EvRunSettled, "c1"), ev(5, 0, contract.EvToolResult)),
	}, {
		name:   "only a delegate's",
		logged: []contract.RunEvent{ev(1, 0, contract.EvRunStarted, "c1")},
		want:   append(stored[:4:4], ev(1, 0, contract.EvRunStarted, "c1")),
	}} {
		t.Run(tt.name, func(t *testing.T) {
			r := storedRunner{stored: stored}
			th := &thread{r: r, log: newEventLog(r)}
			for _, e := range tt.logged {
				th.log.add(e)
			}
			got, _, err := th.history(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
