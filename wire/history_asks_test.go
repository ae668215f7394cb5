package wire

import (
	"context"
	"testing"

	"github.com/batonrt/baton/contract"
)

// askedMeanwhile is a runner whose delegate asks a question while a new
// client's history is being put together: the question reaches the
// thread's log (through its subscription) while SubflowAsks runs, and
// SubflowAsks, reading the children's state then, names it too.
type askedMeanwhile struct {
	log *eventLog
	ask contract.RunEvent
}

func (r *askedMeanwhile) Submit(context.Context, []contract.Turn) (contract.RunSnapshot, error) {
	return contract.RunSnapshot{}, nil
}
func (r *askedMeanwhile) Subscribe(func(contract.RunEvent)) func() { return func() {} }
func (r *askedMeanwhile) EventsSince(context.Context, uint64) ([]contract.RunEvent, error) {
	return nil, nil
}
func (r *askedMeanwhile) Snapshot() contract.RunSnapshot { return contract.RunSnapshot{} }
func (r *askedMeanwhile) Close() error                   { return nil }
func (r *askedMeanwhile) SubflowAsks(context.Context) ([]contract.RunEvent, error) {
	r.log.add(r.ask)
	return []contract.RunEvent{r.ask}, nil
}

// TestHistoryShowsAQuestionAskedMeanwhileOnce: history reads the log
// first and the delegates' open questions after; a question asked in
// between is in both the questions and the log after the history's end,
// which the client's stream follows, so the client is shown it twice.
func TestHistoryShowsAQuestionAskedMeanwhileOnce(t *testing.T) {
	r := &askedMeanwhile{ask: contract.RunEvent{Kind: contract.EvQuestionAsked, Subflow: []string{"call_d"}, Call: &contract.ToolCall{ID: "q1", Name: "ask_human"}}}
	r.log = newEventLog(r)
	th := &thread{id: "t1", r: r, log: r.log}
	events, end, err := th.history(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	after, _, _, _, _ := r.log.read(end)
	n := 0
	for _, ev := range append(events, after...) {
		if ev.Kind == contract.EvQuestionAsked {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the delegate's question is shown %d times (history %d events, then %d from the log), want once", n, len(events), len(after))
	}
}
