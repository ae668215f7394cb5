package conductor

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
)

// A delegate call the scheduler refused is answered with a record stamped
// by the agent's clock, as every other signal the agent makes is: a zero
// time would put the answer at 1970 in the stored session and its events.
func TestRefusedDelegateCallIsStamped(t *testing.T) {
	start := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	a, err := CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, Deps{
		Model: Model{Provider: &firstThenHang{}},
		Env:   Env{SessionID: "session_stamp", Clock: &FixedClock{Start: start}, IDs: &CountingIDs{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	e := contract.StartDelegate{Call: contract.ToolCall{ID: "d1", Name: "helper"}, Delegate: "helper", Session: "session_stamp.d1"}
	sig := a.delegateFailed(e, errors.New("refused"))
	if got, want := sig.At, contract.TimestampOf(start); got != want {
		t.Errorf("the refused call's answer is stamped %v, want the agent's clock's %v", got, want)
	}
	if !sig.Outcome.IsError || sig.Outcome.Content != "error: delegate helper: refused" {
		t.Errorf("outcome %+v, want the delegate's error", sig.Outcome)
	}
}

// A signal applied after the agent stopped on a store failure is refused
// with an error that still matches the failure, so that a caller (a
// parent aborting its children, say) can tell a store failure apart.
func TestApplyAfterStoreFailureKeepsItsCause(t *testing.T) {
	a, err := CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, Deps{
		Model: Model{Provider: &firstThenHang{}},
		Env:   Env{SessionID: "session_failed", IDs: &CountingIDs{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	cause := contract.WrapError(contract.KindStore, context.DeadlineExceeded, "append to session store failed")
	err = a.call(context.Background(), func() error {
		a.failed = cause
		defer func() { a.failed = nil }()
		return a.apply(contract.AbortRequested{Mode: contract.AbortNow})
	})
	if !errors.Is(err, ErrRejected) || !errors.Is(err, contract.ErrStore) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("apply after a store failure: %v, want it to match ErrRejected, contract.ErrStore and the failure's cause", err)
	}
}
