package conductor_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

var errUserLeft = errors.New("the user left")

// TestDoneContextStartsNothing: Submit, Resume and Reopen handed a
// context that has ended already start nothing: no model call, nothing
// stored, the snapshot unchanged. The error says so in the package's
// terms and still matches the context's error, and its cause when it
// has one; it is no run's fault (contract.ErrAborted is a run that began
// and was stopped).
func TestDoneContextStartsNothing(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancelExpired := context.WithTimeout(context.Background(), 0)
	defer cancelExpired()
	left, leave := context.WithCancelCause(context.Background())
	leave(errUserLeft)
	for _, tt := range []struct {
		name string
		ctx  context.Context
		want []error
	}{
		{"cancelled", cancelled, []error{context.Canceled}},
		{"deadline", expired, []error{context.DeadlineExceeded}},
		{"cause", left, []error{context.Canceled, errUserLeft}},
	} {
		for _, call := range []string{"Submit", "Resume", "Reopen"} {
			t.Run(tt.name+" "+call, func(t *testing.T) {
				model := &fakeModel{replies: []replyFunc{say("hello")}}
				st := store.NewMemory()
				deps := testDeps(model, nil)
				deps.Env.Store = st
				a := newAgent(t, contract.AgentConfig{}, deps)
				before := shown(a.Snapshot())
				var err error
				switch call {
				case "Submit":
					_, err = a.Submit(tt.ctx, conductor.Text("hi"))
				case "Resume":
					_, err = a.Resume(tt.ctx, "session_test")
				case "Reopen":
					_, err = a.Reopen(tt.ctx, "session_test")
				}
				if err == nil || !strings.HasPrefix(err.Error(), "conductor: ") {
					t.Fatalf("%s: got %v, want an error prefixed %q", call, err, "conductor: ")
				}
				for _, want := range tt.want {
					if !errors.Is(err, want) {
						t.Errorf("%s: %v does not match %v", call, err, want)
					}
				}
				if errors.Is(err, contract.ErrAborted) {
					t.Errorf("%s: %v matches contract.ErrAborted, but no run began", call, err)
				}
				if diff := cmp.Diff(before, shown(a.Snapshot())); diff != "" {
					t.Errorf("snapshot mismatch (-want +got):\n%s", diff)
				}
				if n := len(model.Requests()); n != 0 {
					t.Errorf("%d model calls, want none", n)
				}
				if _, err := st.Head(context.Background(), "session_test"); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("head of the session: %v, want store.ErrNotFound", err)
				}
			})
		}
	}
}

// shownState is what a host sees of an agent's snapshot.
type shownState struct {
	Session string
	Phase   contract.Phase
	Run     string
	Steps   uint64
}

func shown(s contract.RunSnapshot) shownState {
	return shownState{s.SessionID, s.Phase, s.RunID, s.Steps}
}
