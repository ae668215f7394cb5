package conductor_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// configless records the sessions under prefix as releases before runs
// recorded their config did: without one.
type configless struct {
	store.Store
	prefix string
}

func (c *configless) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	if strings.HasPrefix(id, c.prefix) {
		recs = dropConfigs(recs)
	}
	return c.Store.Append(ctx, id, recs...)
}

func (c *configless) AppendLinked(ctx context.Context, id string, rec contract.Record, links ...store.Hash) (store.Hash, error) {
	if strings.HasPrefix(id, c.prefix) {
		rec = dropConfigs([]contract.Record{rec})[0]
	}
	return c.Store.AppendLinked(ctx, id, rec, links...)
}

func dropConfigs(recs []contract.Record) []contract.Record {
	out := make([]contract.Record, len(recs))
	for i, rec := range recs {
		switch sig := rec.Signal.(type) {
		case contract.Submitted:
			sig.Config = nil
			rec.Signal = sig
		case contract.Resumed:
			sig.Config = nil
			rec.Signal = sig
		}
		out[i] = rec
	}
	return out
}

// TestResumeRefusesToLinkAChildItCannotEnd: a parent whose abort was
// recorded while its delegate's child ran is resumed by an agent whose
// config no longer names that delegate, and the child's session, as
// older releases wrote it, recorded no config to end its run under.
// Linking the child under the abort's answer would leave its run in
// flight for good; Resume must refuse instead, with a config error
// naming the child, and change nothing stored, so that a resume under a
// config that names the delegate again ends the whole tree.
func TestResumeRefusesToLinkAChildItCannotEnd(t *testing.T) {
	withoutWriter := twoDelegates()
	withoutWriter.Delegates = withoutWriter.Delegates[:1]
	st := store.NewMemory()
	abortedMidChild(t, &configless{Store: st, prefix: "session_test/"}, twoDelegates(), "session_test/")
	before, err := st.Head(ctxT(t), "session_test")
	if err != nil {
		t.Fatal(err)
	}

	deps := testDeps(agentsModel{}, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = st
	a := newAgent(t, withoutWriter, deps)
	_, err = a.Resume(ctxT(t), "session_test")
	if !errors.Is(err, contract.ErrConfig) || !strings.Contains(err.Error(), "session_test/2.0") {
		t.Fatalf("Resume = %v, want a config error naming the child session", err)
	}
	_ = a.Close()
	if after, err := st.Head(ctxT(t), "session_test"); err != nil || after != before {
		t.Fatalf("the parent's session moved (%v) on a refused resume", err)
	}

	deps = testDeps(agentsModel{}, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = st
	b := newAgent(t, twoDelegates(), deps)
	if _, err := b.Resume(ctxT(t), "session_test"); !errors.Is(err, contract.ErrAborted) {
		t.Fatalf("Resume under the delegate's config = %v, want the abort", err)
	}
	_ = b.Close()
	checkDAG(t, st, "session_test", 1)
}

// TestResumeStopsOnADroppedDelegatesChildItCannotEnd: a tree closed while
// its delegate's child waits for a person is resumed by an agent whose
// config no longer names that delegate, and the child's session
// recorded no config. The resume is recorded, but the answer to the
// delegate call, which would link the child's run in flight, is not:
// the run stops with a config error, the call unanswered, and a resume
// under a config that names the delegate again picks the child up.
func TestResumeStopsOnADroppedDelegatesChildItCannotEnd(t *testing.T) {
	withoutWriter := twoDelegates()
	withoutWriter.Delegates = withoutWriter.Delegates[:1]
	st := store.NewMemory()
	closedAsking(t, &configless{Store: st, prefix: "session_test/"}, twoDelegates())

	deps := testDeps(askingTree(), toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = st
	a := newAgent(t, withoutWriter, deps)
	snap, err := a.Resume(ctxT(t), "session_test")
	_ = a.Close()
	if !errors.Is(err, contract.ErrConfig) || !strings.Contains(err.Error(), "session_test/2.0") {
		t.Fatalf("Resume = %v, want a config error naming the child session", err)
	}
	if snap.Phase != contract.PhaseAwaitingTools || len(results(snap)) != 0 {
		t.Fatalf("the parent is %s with results %+v, want the delegate call unanswered", snap.Phase, results(snap))
	}

	deps = testDeps(askingTree(), toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = st
	deps.People.Approver = func(context.Context, conductor.ApprovalRequest) (conductor.Decision, error) {
		return conductor.Decision{Approved: true}, nil
	}
	b := newAgent(t, twoDelegates(), deps)
	snap, err = b.Resume(ctxT(t), "session_test")
	_ = b.Close()
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("Resume under the delegate's config = %s, %v; want the run settled", snap.Phase, err)
	}
	if err := st.Verify(ctxT(t)); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if got := results(snap); len(got) != 1 || got[0].IsError {
		t.Fatalf("the delegate call's result %+v, want the child's answer", got)
	}
}
