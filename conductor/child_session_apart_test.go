package conductor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestLongThreadsKeepTheirDelegatesApart: two agents on one store, whose
// session ids are too long for a child's name to extend and end alike,
// each delegate a call at the same step. Each child run is its own: the
// second agent's delegate neither resumes nor reads the first's child
// session, and the first's is left as it was.
func TestLongThreadsKeepTheirDelegatesApart(t *testing.T) {
	tail := strings.Repeat("t", contract.MaxSessionID-2)
	model := agentsModel{
		"parent": func(_ context.Context, req contract.ModelRequest) replyFunc {
			if res := lastResults(req); res != nil {
				return say(res[0].Content)
			}
			return callTools(call{"c1", "delegate_researcher", `{"task":"` + lastUser(req) + `"}`})
		},
		"researcher": answerTask("researched"),
	}
	st := store.NewMemory()
	ctx := ctxT(t)
	var children []string
	for _, thread := range []string{"a" + tail, "b" + tail} {
		deps := testDeps(model, toolBox(t))
		deps.Env.Store = st
		deps.Env.SessionID = thread
		a := newAgent(t, researcherOnly(), deps)
		rec := &recorder{}
		a.Subscribe(rec.add)
		snap, err := a.Submit(ctx, conductor.Text("facts for "+thread[:1]))
		if err != nil {
			t.Fatalf("%s: %v", thread[:1], err)
		}
		want := []contract.ToolResult{{CallID: "c1", Name: "delegate_researcher", Content: "researched: facts for " + thread[:1]}}
		if diff := cmp.Diff(want, results(snap)); diff != "" {
			t.Errorf("%s: results mismatch (-want +got):\n%s", thread[:1], diff)
		}
		if err := a.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		child := childSessionOf(t, rec)
		if !contract.IsDelegatedSession(thread, child) {
			t.Errorf("%s: %q is not recognised as its delegated run", thread[:1], child)
		}
		if len(children) > 0 && contract.IsDelegatedSession(thread, children[0]) {
			t.Errorf("%s: the other thread's child %q is recognised as its delegated run", thread[:1], children[0])
		}
		children = append(children, child)
	}
	if children[0] == children[1] {
		t.Fatalf("both threads' delegates ran on session %q", children[0])
	}
	for i, child := range children {
		records, err := st.Records(ctx, child)
		if err != nil {
			t.Fatal(err)
		}
		if n := countSubmits(records); n != 1 {
			t.Errorf("child session %d (%q) holds %d runs, want 1", i, child, n)
		}
	}
}

func researcherOnly() contract.AgentConfig {
	cfg := twoDelegates()
	cfg.Delegates = cfg.Delegates[:1]
	return cfg
}

// childSessionOf returns the session of the one delegated run the
// recorder saw begin.
func childSessionOf(t *testing.T, rec *recorder) string {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []string
	for _, ev := range rec.events {
		if ev.Kind == contract.EvSubflowStarted {
			out = append(out, ev.Text)
		}
	}
	if len(out) != 1 {
		t.Fatalf("subflow_started for %v, want one", out)
	}
	return out[0]
}

func countSubmits(records []contract.Record) int {
	n := 0
	for _, r := range records {
		if _, ok := r.Signal.(contract.Submitted); ok {
			n++
		}
	}
	return n
}
