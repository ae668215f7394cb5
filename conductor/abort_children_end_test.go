package conductor_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestAbortedChildrenEndOnTheStream: a parent aborted while its delegate's
// child waits publishes, on the parent's own stream, subflow_failed for the
// child it gave up on before the call's result, so a client that showed the
// child start shows it end. Before, the stream had subflow_started and no
// end for it.
func TestAbortedChildrenEndOnTheStream(t *testing.T) {
	a, rec, done := childWaitingForApproval(t)
	if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatal(err)
	}
	if res := <-done; !errors.Is(res.err, contract.ErrAborted) {
		t.Fatalf("submit = %v, want aborted", res.err)
	}
	waitFor(t, func() bool { return rec.published(contract.EvRunFaulted, 0) })
	var got []string
	rec.mu.Lock()
	for _, ev := range rec.events {
		switch {
		case len(ev.Subflow) > 0 || ev.Kind == contract.EvToolCallDelta:
		case ev.Call != nil && ev.Call.ID == "c1", ev.Result != nil && ev.Result.CallID == "c1":
			got = append(got, string(ev.Kind))
		}
	}
	rec.mu.Unlock()
	want := []string{"tool_call", "subflow_started", "subflow_failed", "tool_result"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the parent's events of the delegate call (-want +got):\n%s", diff)
	}
}
