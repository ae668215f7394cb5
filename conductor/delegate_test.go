package conductor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/google/go-cmp/cmp"
)

// agentsModel answers each agent of a delegation tree by its system
// prompt, from the request alone, so a resumed run gets the same answers.
type agentsModel map[string]func(ctx context.Context, req contract.ModelRequest) replyFunc

func (m agentsModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	gen, ok := m[req.System]
	if !ok {
		return (&fakeModel{}).Stream(ctx, req)
	}
	return (&fakeModel{replies: []replyFunc{gen(ctx, req)}}).Stream(ctx, req)
}

// lastResults returns the tool results of the newest tool turn.
func lastResults(req contract.ModelRequest) []contract.ToolResult {
	turns := req.History.Turns()
	if n := len(turns); n > 0 && turns[n-1].Role == contract.RoleTool {
		return turns[n-1].Results()
	}
	return nil
}

func lastUser(req contract.ModelRequest) string {
	turns := req.History.Turns()
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].Role == contract.RoleUser {
			return turns[i].Text()
		}
	}
	return ""
}

// answerTask answers with the task it was given.
func answerTask(prefix string) func(context.Context, contract.ModelRequest) replyFunc {
	return func(_ context.Context, req contract.ModelRequest) replyFunc {
		return say(prefix + ": " + lastUser(req))
	}
}

// delegateOnce calls the calls on the first turn, then answers with the
// results joined.
func delegateOnce(calls ...call) func(context.Context, contract.ModelRequest) replyFunc {
	return func(_ context.Context, req contract.ModelRequest) replyFunc {
		res := lastResults(req)
		if res == nil {
			return callTools(calls...)
		}
		var parts []string
		for _, r := range res {
			parts = append(parts, r.Content)
		}
		return say(strings.Join(parts, " | "))
	}
}

func twoDelegates() contract.AgentConfig {
	return contract.AgentConfig{
		Model:  "gpt-4o",
		System: "parent",
		Delegates: []contract.Delegate{
			{Name: "researcher", Description: "Finds facts.", Config: contract.AgentConfig{Model: "gpt-4o", System: "researcher"}},
			{Name: "writer", Config: contract.AgentConfig{Model: "gpt-4o", System: "writer", Tools: []contract.ToolDescriptor{{Name: "echo"}}}},
		},
	}
}

// TestDelegationRunsChildrenInParallelAsOneDAG: two delegate calls of one
// turn run at once (each child waits for the other to start), their final
// answers are the calls' results, their usage rolls up, their events reach
// the parent's subscribers under their subflow path, and the store holds
// one DAG that verifies and replays.
func TestDelegationRunsChildrenInParallelAsOneDAG(t *testing.T) {
	var started sync.WaitGroup
	started.Add(2)
	meet := func(prefix string) func(context.Context, contract.ModelRequest) replyFunc {
		return func(ctx context.Context, req contract.ModelRequest) replyFunc {
			started.Done()
			waited := make(chan struct{})
			go func() { started.Wait(); close(waited) }()
			select {
			case <-waited:
			case <-time.After(10 * time.Second):
				return say(prefix + ": alone")
			}
			return answerTask(prefix)(ctx, req)
		}
	}
	model := agentsModel{
		"parent":     delegateOnce(call{"c1", "delegate_researcher", `{"task":"facts about Oslo"}`}, call{"c2", "delegate_writer", `{"task":"a poem"}`}),
		"researcher": meet("researched"),
		"writer":     meet("wrote"),
	}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	a := newAgent(t, twoDelegates(), deps)
	rec := &recorder{}
	a.Subscribe(rec.add)

	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	want := []contract.ToolResult{
		{CallID: "c1", Name: "delegate_researcher", Content: "researched: facts about Oslo"},
		{CallID: "c2", Name: "delegate_writer", Content: "wrote: a poem"},
	}
	if diff := cmp.Diff(want, results(snap)); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	if got := snap.RunUsage.ModelCalls; got != 4 {
		t.Errorf("run usage counts %d model calls, want 4 (2 parent, 1 per child)", got)
	}
	if got := snap.RunUsage.ToolCalls; got != 2 {
		t.Errorf("run usage counts %d tool calls, want 2", got)
	}

	ctx := ctxT(t)
	checkDAG(t, st, "session_test", 2)
	if err := store.Replay(ctx, st, cadence.New(twoDelegates()), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}

	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return slices.ContainsFunc(rec.events, func(ev contract.RunEvent) bool {
			return ev.Kind == contract.EvRunSettled && len(ev.Subflow) == 0
		})
	})
	bySubflow := map[string][]contract.EventKind{}
	deltas := map[string]string{}
	rec.mu.Lock()
	for _, ev := range rec.events {
		path := strings.Join(ev.Subflow, "/")
		if ev.Delta == 0 {
			bySubflow[path] = append(bySubflow[path], ev.Kind)
		} else if ev.Kind == contract.EvTextDelta {
			deltas[path] += ev.Text
		}
	}
	rec.mu.Unlock()
	// The children's streamed text reaches the parent's subscriber too.
	wantText := map[string]string{"": "researched: facts about Oslo | wrote: a poem", "c1": "researched: facts about Oslo", "c2": "wrote: a poem"}
	if diff := cmp.Diff(wantText, deltas); diff != "" {
		t.Errorf("text deltas by subflow mismatch (-want +got):\n%s", diff)
	}
	child := []contract.EventKind{contract.EvRunStarted, contract.EvTurnStarted, contract.EvTurnCompleted, contract.EvRunSettled}
	if diff := cmp.Diff(child, bySubflow["c1"]); diff != "" {
		t.Errorf("child c1 events mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(child, bySubflow["c2"]); diff != "" {
		t.Errorf("child c2 events mismatch (-want +got):\n%s", diff)
	}
	root := bySubflow[""]
	for _, k := range []contract.EventKind{contract.EvSubflowStarted, contract.EvSubflowCompleted} {
		if n := count(root, k); n != 2 {
			t.Errorf("root stream has %d %s events, want 2: %v", n, k, root)
		}
	}
}

func count[T comparable](s []T, v T) int {
	n := 0
	for _, x := range s {
		if x == v {
			n++
		}
	}
	return n
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 2000 {
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("condition not reached in 10s")
}

// failer is what the checks need of a *testing.T or a *rapid.T.
type failer interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// checkDAG verifies the store and checks that the session's DAG links
// want chains, every other session of the store exactly once (no child is
// orphaned or linked twice), and that every chain folds to a run that
// ended with well-formed history.
func checkDAG(t failer, st store.Store, session string, want int) {
	t.Helper()
	ctx := context.Background()
	if err := st.Verify(ctx); err != nil {
		t.Fatalf("verify: %v", err)
	}
	linked := map[string]int{}
	var walk func(session string, depth int)
	walk = func(session string, depth int) {
		head, err := st.Head(ctx, session)
		if err != nil {
			t.Fatalf("head of %s: %v", session, err)
		}
		for n, err := range st.Walk(ctx, head) {
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range n.Links {
				name := sessionWithHead(t, st, l)
				linked[name]++
				walk(name, depth+1)
			}
		}
		snap, err := store.Resume(ctx, st, cadence.New(contract.AgentConfig{Model: "gpt-4o"}), session)
		if err != nil {
			t.Fatalf("fold %s: %v", session, err)
		}
		if snap.Phase.InFlight() {
			t.Errorf("session %s is still %s", session, snap.Phase)
		}
		if err := wellFormed(snap.History); err != nil {
			t.Errorf("session %s: %v", session, err)
		}
	}
	walk(session, 0)
	if want >= 0 && len(linked) != want {
		t.Errorf("%d chains linked, want %d: %v", len(linked), want, linked)
	}
	ids, err := st.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if id != session && linked[id] != 1 {
			t.Errorf("child %s linked %d times, want once", id, linked[id])
		}
	}
}

// sessionWithHead names the session whose head is h.
func sessionWithHead(t failer, st store.Store, h store.Hash) string {
	t.Helper()
	ctx := context.Background()
	ids, err := st.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if head, err := st.Head(ctx, id); err == nil && head == h {
			return id
		}
	}
	t.Fatalf("no session has head %s", h)
	return ""
}

// wellFormed checks that every tool call has exactly one result, in the
// turn right after it.
func wellFormed(h contract.History) error {
	turns := h.Turns()
	for i, tn := range turns {
		calls := tn.Calls()
		if len(calls) == 0 {
			continue
		}
		if i+1 >= len(turns) || turns[i+1].Role != contract.RoleTool {
			return fmt.Errorf("turn %d: calls with no tool turn after them", i)
		}
		res := turns[i+1].Results()
		if len(res) != len(calls) {
			return fmt.Errorf("turn %d: %d calls, %d results", i, len(calls), len(res))
		}
		for j := range calls {
			if res[j].CallID != calls[j].ID {
				return fmt.Errorf("turn %d: result %d answers %s, want %s", i, j, res[j].CallID, calls[j].ID)
			}
		}
	}
	return nil
}

// TestDelegateFailuresAreErrorResults: a child whose provider fails and a
// child that reaches its turn cap each answer their call with an error
// result; the parent's run goes on and settles, and every child chain is
// linked.
func TestDelegateFailuresAreErrorResults(t *testing.T) {
	failing := &fakeModel{replies: []replyFunc{func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		return nil, &turn.ProviderError{Failure: contract.FailAuth, Message: "bad key"}
	}}}
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_broken", `{"task":"x"}`}, call{"c2", "delegate_busy", `{"task":"y"}`}),
		"busy": func(context.Context, contract.ModelRequest) replyFunc {
			return callTools(call{"e", "echo", `{"text":"again"}`})
		},
	}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{
		{Name: "broken", Config: contract.AgentConfig{Model: "gpt-4o", System: "broken"}},
		{Name: "busy", Config: contract.AgentConfig{Model: "gpt-4o", System: "busy", MaxTurns: 2, Tools: []contract.ToolDescriptor{{Name: "echo"}}}},
	}}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	deps.Model.Delegates = map[string]turn.Provider{"broken": failing}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	res := results(snap)
	if len(res) != 2 || !res[0].IsError || !res[1].IsError {
		t.Fatalf("results %+v, want two errors", res)
	}
	for i, want := range []string{"error: delegate broken: failed: baton: model: auth: turn: provider auth: bad key", "error: delegate busy: failed: baton: max_turns: reached the cap of 2 model calls"} {
		if res[i].Content != want {
			t.Errorf("result %d = %q, want %q", i, res[i].Content, want)
		}
	}
	if snap.Phase != contract.PhaseSettled {
		t.Errorf("parent phase %s, want settled", snap.Phase)
	}
	checkDAG(t, st, "session_test", 2)
}

// TestDelegateFailureHidesURLsAndKeys: a child whose model call failed
// with its upstream URL and a key in the error hands the parent's model
// (and so its session and clients) a failure without them.
func TestDelegateFailureHidesURLsAndKeys(t *testing.T) {
	leak := `Post "https://llm.internal.example/v1/chat?key=sk-live-abcdef123456": connection refused (Authorization: Bearer sk-live-abcdef123456)`
	failing := &fakeModel{replies: []replyFunc{func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		return nil, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "openai: request failed", Err: errors.New(leak)}
	}}}
	model := agentsModel{"parent": delegateOnce(call{"c1", "delegate_broken", `{"task":"x"}`})}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{
		{Name: "broken", Config: contract.AgentConfig{Model: "gpt-4o", System: "broken"}},
	}}
	deps := testDeps(model, toolBox(t))
	deps.Model.Delegates = map[string]turn.Provider{"broken": failing}
	snap, err := newAgent(t, cfg, deps).Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	res := results(snap)
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Content, "connection refused") {
		t.Fatalf("results %+v, want the child's failure", res)
	}
	for _, secret := range []string{"llm.internal.example", "sk-live"} {
		if strings.Contains(res[0].Content, secret) {
			t.Errorf("the parent's model is handed %q: %s", secret, res[0].Content)
		}
	}
}

// TestAbortReachesChildren: aborting the parent aborts its running child;
// both histories stay well formed and the child's chain is linked at the
// parent's abort.
func TestAbortReachesChildren(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_researcher", `{"task":"slow"}`}),
		"researcher": func(context.Context, contract.ModelRequest) replyFunc {
			return blockUntil(make(chan struct{}), say("never"))
		},
	}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	a := newAgent(t, twoDelegates(), deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := make(chan error, 1)
	go func() {
		_, err := a.Submit(ctxT(t), conductor.Text("go"))
		done <- err
	}()
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, ev := range rec.events {
			if ev.Kind == contract.EvRunStarted && len(ev.Subflow) == 1 {
				return true
			}
		}
		return false
	})
	if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, contract.ErrAborted) {
		t.Fatalf("submit = %v, want aborted", err)
	}
	checkDAG(t, st, "session_test", 1)
	child, err := store.Resume(ctxT(t), st, cadence.New(contract.AgentConfig{Model: "gpt-4o"}), "session_test/2.0")
	if err != nil {
		t.Fatal(err)
	}
	if child.Err == nil || child.Err.Kind != contract.KindAborted {
		t.Errorf("child ended with %v, want aborted", child.Err)
	}
}

// TestChildApprovalSurfacesOnTheParent: a child's approval request reaches
// the parent's subscribers with the subflow path and is answered through
// the parent, by call id alone or by path.
func TestChildApprovalSurfacesOnTheParent(t *testing.T) {
	for _, byPath := range []bool{false, true} {
		t.Run(fmt.Sprintf("by_path=%v", byPath), func(t *testing.T) {
			model := agentsModel{
				"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"write"}`}),
				"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
			}
			deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval)))
			deps.People.Approver = conductor.ApproveLater
			a := newAgent(t, twoDelegates(), deps)
			rec := &recorder{}
			a.Subscribe(rec.add)
			done := make(chan contract.RunSnapshot, 1)
			go func() {
				snap, _ := a.Submit(ctxT(t), conductor.Text("go"))
				done <- snap
			}()
			var asked contract.RunEvent
			waitFor(t, func() bool {
				rec.mu.Lock()
				defer rec.mu.Unlock()
				for _, ev := range rec.events {
					if ev.Kind == contract.EvApprovalRequested {
						asked = ev
						return true
					}
				}
				return false
			})
			if diff := cmp.Diff([]string{"c1"}, asked.Subflow); diff != "" {
				t.Fatalf("approval subflow mismatch (-want +got):\n%s", diff)
			}
			asks, err := a.SubflowAsks(ctxT(t))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]contract.RunEvent{asked}, asks); diff != "" {
				t.Errorf("SubflowAsks differs from the request the stream carried (-want +got):\n%s", diff)
			}
			if byPath {
				err = a.ApproveSubflow(ctxT(t), asked.Subflow, asked.Call.ID, conductor.Decision{Approved: true})
			} else {
				err = a.Approve(ctxT(t), asked.Call.ID, conductor.Decision{Approved: true})
			}
			if err != nil {
				t.Fatal(err)
			}
			snap := <-done
			if got := results(snap); len(got) != 1 || got[0].Content != "ink" {
				t.Errorf("parent results %+v, want the child's answer ink", got)
			}
		})
	}
}

func dispatchNeedsApproval(d *contract.ToolDescriptor) { d.NeedsApproval = true }

// TestDelegateConfigErrors: bad delegation is refused by CreateAgent,
// naming each bad field.
func TestDelegateConfigErrors(t *testing.T) {
	child := contract.AgentConfig{Model: "gpt-4o"}
	cases := []struct {
		name  string
		cfg   contract.AgentConfig
		deps  func(*conductor.Deps)
		field string
	}{
		{"collides with a tool", contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "delegate_echo"}}, Delegates: []contract.Delegate{{Name: "echo", Config: child}}}, nil, "Delegates[0].Name"},
		{"declared twice", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "a", Config: child}, {Name: "a", Config: child}}}, nil, "Delegates[1].Name"},
		{"bad name", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "a b", Config: child}}}, nil, "Delegates[0].Name"},
		{"child config", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "a"}}}, nil, "Delegates[0].Config.Model"},
		{"child tool missing", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "a", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "nope"}}}}}}, nil, "Delegates[0].Config.Tools[0]"},
		{"provider for no delegate", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "a", Config: child}}}, func(d *conductor.Deps) {
			d.Model.Delegates = map[string]turn.Provider{"b": &fakeModel{}}
		}, "Deps.Model.Delegates[b]"},
		{"depth cap", contract.AgentConfig{Model: "m", MaxDelegationDepth: -1}, nil, "MaxDelegationDepth"},
		{"input redefines task", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "a", Config: child, InputSchema: json.RawMessage(`{"properties":{"task":{}}}`)}}}, nil, "Delegates[0].InputSchema"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			deps := testDeps(&fakeModel{}, toolBox(t, echoTool(t)))
			if c.deps != nil {
				c.deps(&deps)
			}
			a, err := conductor.CreateAgent(c.cfg, deps)
			if err == nil {
				_ = a.Close()
				t.Fatal("CreateAgent accepted it")
			}
			re, ok := contract.AsRunError(err)
			if !ok || re.Kind != contract.KindConfig {
				t.Fatalf("error %v, want a config RunError", err)
			}
			var fields []string
			for _, f := range re.Fields {
				fields = append(fields, f.Field)
			}
			if !slices.Contains(fields, c.field) {
				t.Errorf("fields %v, want %s among them (%v)", fields, c.field, err)
			}
		})
	}
}

// TestDAGSurvivesForkExportAndImport: a fork at the parent's last node
// keeps the linked children; exported alone and imported into a new
// store, the fork still verifies and replays with its children.
func TestDAGSurvivesForkExportAndImport(t *testing.T) {
	model := agentsModel{
		"parent":     delegateOnce(call{"c1", "delegate_researcher", `{"task":"facts"}`}, call{"c2", "delegate_writer", `{"task":"poem"}`}),
		"researcher": answerTask("researched"),
		"writer":     answerTask("wrote"),
	}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	a := newAgent(t, twoDelegates(), deps)
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	head, err := st.Head(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Fork(ctx, "forked", head); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := st.Export(ctx, &buf, "forked"); err != nil {
		t.Fatal(err)
	}
	fresh := store.NewMemory()
	ids, err := fresh.Import(ctx, &buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"forked"}, ids); diff != "" {
		t.Errorf("imported sessions mismatch (-want +got):\n%s", diff)
	}
	if err := fresh.Verify(ctx); err != nil {
		t.Fatalf("verify: %v", err)
	}
	links := 0
	for n, err := range fresh.Walk(ctx, head) {
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range n.Links {
			links++
			if _, err := fresh.Node(ctx, l); err != nil {
				t.Errorf("linked child head %s did not travel: %v", l, err)
			}
		}
	}
	if links != 2 {
		t.Errorf("the fork links %d children, want 2", links)
	}
	if err := store.Replay(ctx, fresh, cadence.New(twoDelegates()), "forked"); err != nil {
		t.Errorf("replay of the imported fork: %v", err)
	}
}

// TestChildQuestionIsAnsweredThroughTheParent: a child run that asks a
// person waits; the question reaches the parent's subscribers with the
// subflow path, and the parent's Answer resolves it.
func TestChildQuestionIsAnsweredThroughTheParent(t *testing.T) {
	ctx := ctxT(t)
	cfg, model := askerTree()
	a := newAgent(t, cfg, testDeps(model, toolBox(t, dispatch.AskHuman(""))))
	asked, stop := questions(a)
	defer stop()
	done := submitAsync(a, "go")
	q := nextQuestion(t, ctx, asked)
	if diff := cmp.Diff([]string{"c1"}, q.Subflow); diff != "" {
		t.Fatalf("question subflow mismatch (-want +got):\n%s", diff)
	}
	if err := a.Answer(ctx, q.Call.ID, "Bergen"); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	if got := results(res.snap); len(got) != 1 || got[0].Content != "Bergen" {
		t.Errorf("parent results %+v, want the child's answer Bergen", got)
	}
}

// askerTree is a parent that hands a task to "asker", whose child asks a
// person, and answers with what its child said.
func askerTree() (contract.AgentConfig, agentsModel) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_asker", `{"task":"pick a city"}`}),
		"asker":  delegateOnce(call{"q1", "ask_human", `{"question":"Which city?"}`}),
	}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{askerDelegate()}}
	return cfg, model
}

func askerDelegate() contract.Delegate {
	return contract.Delegate{Name: "asker", Config: contract.AgentConfig{Model: "gpt-4o", System: "asker", Tools: []contract.ToolDescriptor{{Name: "ask_human"}}}}
}

// askerTwoDown is askerTree with "mid" between the parent and the asker.
func askerTwoDown() (contract.AgentConfig, agentsModel) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_mid", `{"task":"pick a city"}`}),
		"mid":    delegateOnce(call{"m1", "delegate_asker", `{"task":"pick a city"}`}),
		"asker":  delegateOnce(call{"q1", "ask_human", `{"question":"Which city?"}`}),
	}
	mid := contract.AgentConfig{Model: "gpt-4o", System: "mid", Delegates: []contract.Delegate{askerDelegate()}}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{{Name: "mid", Config: mid}}}
	return cfg, model
}

// TestGrandchildTakesToolsFromTheRootsBox: a delegate two levels down
// gets its tools from the root agent's box, as one level down does,
// though the agent between offers none of them.
func TestGrandchildTakesToolsFromTheRootsBox(t *testing.T) {
	ctx := ctxT(t)
	cfg, model := askerTwoDown()
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps.People.Answerer = func(context.Context, conductor.QuestionRequest) (string, error) {
		return "Bergen", nil
	}
	snap, err := newAgent(t, cfg, deps).Submit(ctx, conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if got := results(snap); len(got) != 1 || got[0].Content != "Bergen" {
		t.Errorf("results %+v, want the grandchild's answer Bergen", got)
	}
}

// TestCloseKeepsAChildQuestionOpen: closing an agent whose run waits only
// for a person in a delegate's child, or its child's, aborts no run; a
// new agent
// resumes the parent, which picks the child up, whose question is asked
// again, and the answer finishes both.
func TestCloseKeepsAChildQuestionOpen(t *testing.T) {
	for name, tree := range map[string]func() (contract.AgentConfig, agentsModel){"child": askerTree, "grandchild": askerTwoDown} {
		t.Run(name, func(t *testing.T) { closeAndResumeAsker(t, tree) })
	}
}

func closeAndResumeAsker(t *testing.T, tree func() (contract.AgentConfig, agentsModel)) {
	st := store.NewMemory()
	cfg, model := closeAsking(t, st, tree)
	resumeAnswering(t, st, cfg, model)
}

// TestCloseRightAfterReopenKeepsAChildQuestionOpen: an agent closed as
// soon as Reopen returns, before the children of its delegate calls have
// picked their runs up again, keeps the tree for the next Resume too.
// Close took a child that had not begun yet for one about to run, and
// aborted the tree.
func TestCloseRightAfterReopenKeepsAChildQuestionOpen(t *testing.T) {
	for name, tree := range map[string]func() (contract.AgentConfig, agentsModel){"child": askerTree, "grandchild": askerTwoDown} {
		t.Run(name, func(t *testing.T) {
			st := store.NewMemory()
			cfg, model := closeAsking(t, st, tree)
			deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
			deps.Env.Store = st
			a := newAgent(t, cfg, deps)
			if _, err := a.Reopen(ctxT(t), "session_test"); err != nil {
				t.Fatal(err)
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			resumeAnswering(t, st, cfg, model)
		})
	}
}

// TestAnswerRightAfterReopenReachesTheChild: a person's answer to a
// delegate child's question, given as soon as Reopen returns, reaches the
// child, though the child picks its run up again a moment later.
func TestAnswerRightAfterReopenReachesTheChild(t *testing.T) {
	for name, tree := range map[string]func() (contract.AgentConfig, agentsModel){"child": askerTree, "grandchild": askerTwoDown} {
		t.Run(name, func(t *testing.T) {
			ctx := ctxT(t)
			st := store.NewMemory()
			cfg, model := closeAsking(t, st, tree)
			deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
			deps.Env.Store = st
			a := newAgent(t, cfg, deps)
			ended := make(chan contract.RunSnapshot, 1)
			a.Subscribe(func(ev contract.RunEvent) {
				if ev.Kind == contract.EvRunSettled && len(ev.Subflow) == 0 {
					ended <- a.Snapshot()
				}
			})
			if _, err := a.Reopen(ctx, "session_test"); err != nil {
				t.Fatal(err)
			}
			if err := a.Answer(ctx, "q1", "Bergen"); err != nil {
				t.Fatalf("answer right after reopen: %v", err)
			}
			select {
			case s := <-ended:
				if got := results(s); len(got) != 1 || got[0].Content != "Bergen" {
					t.Errorf("parent results %+v, want the child's answer Bergen", got)
				}
			case <-ctx.Done():
				t.Fatal("the reopened run did not settle")
			}
		})
	}
}

// TestSubflowAsksNamesAChildsOpenQuestion: after Reopen, SubflowAsks
// returns the question a delegate's child (or its child) waits on, as
// its event with the subflow path from the root, though the root's own
// session holds no event of it; once answered, none.
func TestSubflowAsksNamesAChildsOpenQuestion(t *testing.T) {
	for name, tc := range map[string]struct {
		tree func() (contract.AgentConfig, agentsModel)
		path []string
	}{"child": {askerTree, []string{"c1"}}, "grandchild": {askerTwoDown, []string{"c1", "m1"}}} {
		t.Run(name, func(t *testing.T) {
			ctx := ctxT(t)
			st := store.NewMemory()
			cfg, model := closeAsking(t, st, tc.tree)
			deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
			deps.Env.Store = st
			a := newAgent(t, cfg, deps)
			if _, err := a.Reopen(ctx, "session_test"); err != nil {
				t.Fatal(err)
			}
			asks, err := a.SubflowAsks(ctx)
			if err != nil {
				t.Fatal(err)
			}
			type ask struct {
				Kind     contract.EventKind
				Subflow  []string
				Call     string
				Question string
			}
			var got []ask
			for _, ev := range asks {
				got = append(got, ask{ev.Kind, ev.Subflow, ev.Call.ID, ev.Question.Text})
			}
			want := []ask{{contract.EvQuestionAsked, tc.path, "q1", "Which city?"}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("open asks after reopen (-want +got):\n%s", diff)
			}
			if err := a.AnswerSubflow(ctx, tc.path, "q1", "Bergen"); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { return !a.Snapshot().Phase.InFlight() })
			if asks, err := a.SubflowAsks(ctx); err != nil || len(asks) != 0 {
				t.Errorf("open asks after the answer: %+v, %v; want none", asks, err)
			}
		})
	}
}

// closeAsking submits to a new agent of the tree on st and closes it once
// the question is asked.
func closeAsking(t *testing.T, st store.Store, tree func() (contract.AgentConfig, agentsModel)) (contract.AgentConfig, agentsModel) {
	t.Helper()
	cfg, model := tree()
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps.Env.Store = st
	closeWhileAsked(t, newAgent(t, cfg, deps), contract.PhaseAwaitingTools)
	return cfg, model
}

// resumeAnswering resumes the session on st on a new agent whose
// Answerer answers Bergen, and checks the question was asked again and
// its answer finished the tree.
func resumeAnswering(t *testing.T, st store.Store, cfg contract.AgentConfig, model agentsModel) {
	t.Helper()
	ctx := ctxT(t)
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps.Env.Store = st
	var again []string
	deps.People.Answerer = func(_ context.Context, req conductor.QuestionRequest) (string, error) {
		c, q := req.Call, req.Question
		again = append(again, c.ID+": "+q.Text)
		return "Bergen", nil
	}
	snap, err := newAgent(t, cfg, deps).Resume(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"q1: Which city?"}, again); diff != "" {
		t.Errorf("questions asked after the restart mismatch (-want +got):\n%s", diff)
	}
	if got := results(snap); snap.Phase != contract.PhaseSettled || len(got) != 1 || got[0].Content != "Bergen" {
		t.Errorf("resumed parent %s with results %+v, want the child's answer Bergen", snap.Phase, got)
	}
}

// TestAnswerSubflowReachesOnlyItsRun: the parent asks a person "q1" while
// its delegate's child asks one under the same call id; an answer for the
// child's path answers the child's question only, and the parent's waits
// for its own.
func TestAnswerSubflowReachesOnlyItsRun(t *testing.T) {
	ctx := ctxT(t)
	model := agentsModel{
		"parent": delegateOnce(call{"q1", "ask_human", `{"question":"When?"}`}, call{"c1", "delegate_asker", `{"task":"pick a city"}`}),
		"asker":  delegateOnce(call{"q1", "ask_human", `{"question":"Which city?"}`}),
	}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{askerDelegate()}, Tools: []contract.ToolDescriptor{{Name: "ask_human"}}}
	a := newAgent(t, cfg, testDeps(model, toolBox(t, dispatch.AskHuman(""))))
	asked, stop := questions(a)
	defer stop()
	done := submitAsync(a, "go")
	for range 2 {
		nextQuestion(t, ctx, asked)
	}
	if err := a.AnswerSubflow(ctx, []string{"c1"}, "q1", "Bergen"); err != nil {
		t.Fatal(err)
	}
	if err := a.AnswerSubflow(ctx, []string{"c9"}, "q1", "Oslo"); !errors.Is(err, conductor.ErrNoRun) {
		t.Errorf("an answer for a delegate call with no child: %v, want ErrNoRun", err)
	}
	waitFor(t, func() bool {
		for _, p := range a.Snapshot().Pending {
			if p.Call.ID == "c1" {
				return p.State == contract.CallDone
			}
		}
		return false
	})
	if qs := a.Snapshot().PendingQuestions(); len(qs) != 1 || qs[0].Call.ID != "q1" {
		t.Fatalf("pending questions %+v, want the parent's own q1 still waiting", qs)
	}
	if err := a.AnswerSubflow(ctx, nil, "q1", "In May"); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	got := map[string]string{}
	for _, r := range results(res.snap) {
		got[r.CallID] = r.Content
	}
	if diff := cmp.Diff(map[string]string{"q1": "In May", "c1": "Bergen"}, got); diff != "" {
		t.Errorf("parent results mismatch (-want +got):\n%s", diff)
	}
}

// TestDelegateTypedInput: a delegate's declared input is offered beside
// the task, and what the model sends in it reaches the child after the
// task.
func TestDelegateTypedInput(t *testing.T) {
	var offered json.RawMessage
	model := agentsModel{
		"parent": func(ctx context.Context, req contract.ModelRequest) replyFunc {
			for _, d := range req.Tools {
				if d.Name == "delegate_forecaster" {
					offered = d.InputSchema
				}
			}
			return delegateOnce(call{"c1", "delegate_forecaster", `{"task":"forecast","city":"Oslo","days":2}`})(ctx, req)
		},
		"forecaster": answerTask("got"),
	}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{{
		Name: "forecaster", Config: contract.AgentConfig{Model: "gpt-4o", System: "forecaster"},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`),
	}}}
	a := newAgent(t, cfg, testDeps(model, toolBox(t)))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := results(snap)[0].Content, `got: forecast`+"\n\n"+`Input: {"city":"Oslo","days":2}`; got != want {
		t.Errorf("child saw %q, want %q", got, want)
	}
	const wantSchema = `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},"task":{"type":"string","description":"the task for the delegate, self-contained: it sees nothing else of this conversation"}},"required":["task","city"]}`
	if string(offered) != wantSchema {
		t.Errorf("offered schema\n got %s\nwant %s", offered, wantSchema)
	}
}

// TestDelegatesRunUnderTheToolConcurrencyLimit: with ToolConcurrency 1,
// two delegate calls of one turn run one after the other.
func TestDelegatesRunUnderTheToolConcurrencyLimit(t *testing.T) {
	var mu sync.Mutex
	running, most := 0, 0
	child := func(ctx context.Context, req contract.ModelRequest) replyFunc {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return answerTask("done")(ctx, req)
	}
	model := agentsModel{
		"parent":     delegateOnce(call{"c1", "delegate_researcher", `{"task":"a"}`}, call{"c2", "delegate_writer", `{"task":"b"}`}),
		"researcher": child,
		"writer":     child,
	}
	cfg := twoDelegates()
	cfg.ToolConcurrency = 1
	a := newAgent(t, cfg, testDeps(model, toolBox(t, echoTool(t))))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(results(snap)) != 2 {
		t.Fatalf("results %+v, want two", results(snap))
	}
	if most != 1 {
		t.Errorf("%d children ran at once under ToolConcurrency 1", most)
	}
}
