package conductor

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// hostCalls are the host calls that hand input to the run in flight,
// each as it would be made on a run waiting for the approval of c1.
var hostCalls = []struct {
	name string
	call func(context.Context, *Agent) error
}{
	{"steer", func(ctx context.Context, a *Agent) error { return a.Steer(ctx, Text("late")) }},
	{"follow up", func(ctx context.Context, a *Agent) error { return a.FollowUp(ctx, Text("late")) }},
	{"approve", func(ctx context.Context, a *Agent) error { return a.Approve(ctx, "c1", Decision{Approved: true}) }},
	{"approve calls", func(ctx context.Context, a *Agent) error {
		return a.ApproveCalls(ctx, nil, []CallDecision{{CallID: "c1", Decision: Decision{Approved: true}}})
	}},
	{"approve subflow", func(ctx context.Context, a *Agent) error {
		return a.ApproveSubflow(ctx, nil, "c1", Decision{Approved: true})
	}},
	{"abort", func(ctx context.Context, a *Agent) error { return a.Abort(ctx, contract.AbortNow) }},
	{"waits only for people", func(ctx context.Context, a *Agent) error {
		_, err := a.WaitsOnlyForPeople(ctx)
		return err
	}},
}

// holdAppend is a store that holds the append of a record of the kind
// held, once, until release is closed; entered is closed when it does.
type holdAppend struct {
	store.Store
	held             contract.SignalKind
	once             atomic.Bool
	entered, release chan struct{}
}

func (s *holdAppend) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	for _, r := range recs {
		if s.held != "" && r.Signal.SignalKind() == s.held && s.once.CompareAndSwap(false, true) {
			close(s.entered)
			<-s.release
		}
	}
	return s.Store.Append(ctx, id, recs...)
}

// awaitingApproval starts a run whose one call, c1, waits for the host's
// decision, and returns the agent once it does, with the channel its
// Submit's outcome comes on.
func awaitingApproval(t *testing.T, st *holdAppend) (*Agent, chan contract.RunSnapshot) {
	t.Helper()
	deploy := dispatch.MustFunc("deploy", "Deploys a version.", func(_ context.Context, in struct {
		Version string `json:"version"`
	}) (string, error) {
		return "deployed " + in.Version, nil
	}, dispatch.NeedsApproval())
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "deploy", Arguments: `{"version":"v2"}`}}},
		scripted.Reply{Text: "v2 is live."},
	)
	deps := Deps{
		Model: Model{Provider: model, MaxRetries: turn.NoRetries},
		Tools: Tools{Box: dispatch.MustToolBox(deploy)},
		Env:   Env{SessionID: "session_ctx", Store: st, IDs: &CountingIDs{}},
	}
	deps.People.Approver = ApproveLater
	a, err := CreateAgent(contract.AgentConfig{Model: "scripted"}, deps)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	done := make(chan contract.RunSnapshot, 1)
	go func() {
		snap, _ := a.Submit(context.Background(), Text("ship v2"))
		done <- snap
	}()
	deadline := time.Now().Add(5 * time.Second)
	for a.Snapshot().Phase != contract.PhaseAwaitingApproval {
		if time.Now().After(deadline) {
			t.Fatalf("the run never waited for approval: %s", a.Snapshot().Phase)
		}
		time.Sleep(time.Millisecond)
	}
	return a, done
}

func storedRecords(t *testing.T, a *Agent) []contract.Record {
	t.Helper()
	recs, err := a.store.Records(t.Context(), "session_ctx")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestHostCallDoneBeforeTakenUpAppliesNothing: a host call whose ctx is
// done before the agent takes it up, whether done already when made or
// while the agent was busy with another task, records nothing and
// returns ctx's error; the run then goes on as though it was never
// made, ending when the host approves its call.
func TestHostCallDoneBeforeTakenUpAppliesNothing(t *testing.T) {
	for _, hc := range hostCalls {
		for _, busy := range []bool{false, true} {
			name := hc.name + "/done already"
			if busy {
				name = hc.name + "/done while queued"
			}
			t.Run(name, func(t *testing.T) {
				a, done := awaitingApproval(t, &holdAppend{Store: store.NewMemory()})
				before := storedRecords(t, a)
				ctx, cancel := context.WithCancel(t.Context())
				var err error
				if !busy {
					cancel()
					err = hc.call(ctx, a)
				} else {
					entered, release := make(chan struct{}), make(chan struct{})
					go a.enqueue(&task{fn: func() { close(entered); <-release }})
					<-entered // the agent is held in a task of its own
					errc := make(chan error, 1)
					go func() { errc <- hc.call(ctx, a) }()
					waitInbox(t, a, 1)
					cancel()
					err = <-errc
					close(release)
				}
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v, want one matching context.Canceled", err)
				}
				// The abandoned call has had its turn once this one has.
				if err := a.call(t.Context(), func() error { return nil }); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(before, storedRecords(t, a)); diff != "" {
					t.Errorf("records changed (-before +after):\n%s", diff)
				}
				if err := a.Approve(t.Context(), "c1", Decision{Approved: true}); err != nil {
					t.Fatal(err)
				}
				snap := <-done
				last, _ := snap.History.Last()
				got := []string{string(snap.Phase), last.Text(), string(snap.History.Turns()[0].Text())}
				if diff := cmp.Diff([]string{string(contract.PhaseSettled), "v2 is live.", "ship v2"}, got); diff != "" {
					t.Errorf("run (-want +got):\n%s", diff)
				}
				if n := len(snap.History.Turns()); n != 4 {
					t.Errorf("history has %d turns, want 4: the prompt, the call, its result, the reply", n)
				}
			})
		}
	}
}

// TestHostCallTakenUpReturnsItsOwnResult: once the agent has taken a
// call up, a ctx done while it runs changes nothing: the call runs to
// its end and returns its own result, so a caller never hears ctx's
// error for input that was recorded. A steer skips the call waiting
// for approval, so each run ends with no more from the host.
func TestHostCallTakenUpReturnsItsOwnResult(t *testing.T) {
	for _, tc := range []struct {
		name string
		held contract.SignalKind
		call func(context.Context, *Agent) error
		want contract.Phase
	}{
		{"steer", contract.SigSteered, func(ctx context.Context, a *Agent) error { return a.Steer(ctx, Text("quick")) }, contract.PhaseSettled},
		{"approve", contract.SigApprovalResolved, func(ctx context.Context, a *Agent) error {
			return a.Approve(ctx, "c1", Decision{Approved: true})
		}, contract.PhaseSettled},
		{"abort", contract.SigAbortRequested, func(ctx context.Context, a *Agent) error { return a.Abort(ctx, contract.AbortNow) }, contract.PhaseFaulted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &holdAppend{Store: store.NewMemory(), held: tc.held, entered: make(chan struct{}), release: make(chan struct{})}
			a, done := awaitingApproval(t, st)
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() { errc <- tc.call(ctx, a) }()
			<-st.entered // taken up: its record is being stored
			cancel()
			close(st.release)
			if err := <-errc; err != nil {
				t.Fatalf("err = %v, want the call's own nil", err)
			}
			var kinds []contract.SignalKind
			for _, r := range storedRecords(t, a) {
				kinds = append(kinds, r.Signal.SignalKind())
			}
			found := false
			for _, k := range kinds {
				found = found || k == tc.held
			}
			if !found {
				t.Errorf("no %s record among %v", tc.held, kinds)
			}
			if snap := <-done; snap.Phase != tc.want {
				t.Errorf("phase %s, want %s", snap.Phase, tc.want)
			}
		})
	}
}
