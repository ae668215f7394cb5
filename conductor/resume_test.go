package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"sync"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

var errCrash = errors.New("simulated crash")

// crashingStore stops accepting appends after `after` successful ones,
// as if the process died there: what was appended stays durable.
type crashingStore struct {
	store.Store
	mu    sync.Mutex
	after int
}

func (c *crashingStore) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	c.mu.Lock()
	if c.after <= 0 {
		c.mu.Unlock()
		return store.Hash{}, errCrash
	}
	c.after--
	c.mu.Unlock()
	return c.Store.Append(ctx, id, recs...)
}

// historyModel answers from the history alone, so a resumed run gets the
// same answers: first a read and a write, then a final text.
type historyModel struct{}

func (historyModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	toolTurns := 0
	for _, t := range req.History.Turns() {
		if t.Role == contract.RoleTool {
			toolTurns++
		}
	}
	var fn replyFunc
	if toolTurns == 0 {
		fn = callTools(call{"r1", "read", `{}`}, call{"w1", "write", `{}`})
	} else {
		fn = say("done")
	}
	return (&fakeModel{replies: []replyFunc{fn}}).Stream(ctx, req)
}

// TestResumeAfterAStopBetweenEveryPairOfEffects stops the agent at every
// append. Each step's effects begin with its persist, and nothing after
// it is durable, so stopping before the Nth append covers every durable
// state a crash between two effects can leave. A fresh agent then
// resumes the session and must finish it with well-formed history, a
// replayable record, and no non-idempotent tool run twice.
func TestResumeAfterAStopBetweenEveryPairOfEffects(t *testing.T) {
	total := countAppends(t)
	twice := 0
	for n := 0; n <= total; n++ {
		var mu sync.Mutex
		runs := map[string]int{}
		count := func(name string) dispatch.Tool {
			return rawTool(t, name, func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
				mu.Lock()
				runs[name]++
				mu.Unlock()
				return contract.ToolOutcome{Content: name + " ok"}, nil
			}, func(d *contract.ToolDescriptor) { d.Idempotent = name == "read" })
		}
		box := toolBox(t, count("read"), count("write"))
		base := store.NewMemory()
		deps := testDeps(historyModel{}, box)
		deps.Env.Store = &crashingStore{Store: base, after: n}
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, deps)
		if err != nil {
			t.Fatal(err)
		}
		_, subErr := a.Submit(ctxT(t), conductor.Text("go"))
		_ = a.Close()
		if n == total {
			if subErr != nil {
				t.Fatalf("uninterrupted run: %v", subErr)
			}
			continue
		}
		if !errors.Is(subErr, contract.ErrStore) {
			t.Fatalf("stop at %d: submit error %v", n, subErr)
		}
		deps2 := testDeps(historyModel{}, box)
		deps2.Env.Store = base
		b, err := conductor.CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, deps2)
		if err != nil {
			t.Fatal(err)
		}
		snap, err := b.Resume(ctxT(t), "session_test")
		_ = b.Close()
		if n == 0 {
			if !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("nothing was durable, yet resume said %v", err)
			}
			continue
		}
		if err != nil || snap.Phase != contract.PhaseSettled {
			t.Fatalf("stop at %d: resume %v phase %s", n, err, snap.Phase)
		}
		checkWellFormed(t, snap)
		if runs["write"] > 1 {
			t.Errorf("stop at %d: non-idempotent write ran %d times", n, runs["write"])
		}
		if runs["read"] > 1 {
			twice++
		}
		records, err := base.Records(context.Background(), "session_test")
		if err != nil {
			t.Fatal(err)
		}
		rules := cadence.New(contract.AgentConfig{Model: "gpt-4o", Tools: box.Descriptors()})
		if _, err := rules.Replay(cadence.InitialSnapshot("session_test"), records); err != nil {
			t.Fatalf("stop at %d: replay: %v", n, err)
		}
	}
	t.Logf("%d stop points; the idempotent read ran twice after %d of them", total, twice)
}

func countAppends(t *testing.T) int {
	base := store.NewMemory()
	deps := testDeps(historyModel{}, toolBox(t, rawTool(t, "read", okTool), rawTool(t, "write", okTool)))
	deps.Env.Store = base
	a := newAgent(t, contract.AgentConfig{}, deps)
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	records, err := base.Records(context.Background(), "session_test")
	if err != nil {
		t.Fatal(err)
	}
	return len(records)
}

func okTool(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
	return contract.ToolOutcome{Content: "ok"}, nil
}

// checkWellFormed: every tool call has exactly one result, in the next
// turn, in call order.
func checkWellFormed(t *testing.T, s contract.RunSnapshot) {
	t.Helper()
	turns := s.History.Turns()
	for i, turn := range turns {
		calls := turn.Calls()
		if len(calls) == 0 {
			continue
		}
		if i+1 >= len(turns) {
			t.Fatalf("turn %d: calls without results", i)
		}
		rs := turns[i+1].Results()
		if len(rs) != len(calls) {
			t.Fatalf("turn %d: %d calls, %d results", i, len(calls), len(rs))
		}
		for j := range calls {
			if rs[j].CallID != calls[j].ID {
				t.Fatalf("turn %d: result %d answers %s, want %s", i, j, rs[j].CallID, calls[j].ID)
			}
		}
	}
}

// TestPendingApprovalSurvivesARestart: the process dies while a call
// waits for approval; a new agent resumes the session, asks its approver
// again, and finishes the run.
func TestPendingApprovalSurvivesARestart(t *testing.T) {
	ran := make(chan string, 2)
	release := make(chan struct{})
	close(release)
	box := toolBox(t, gateTool(t, "risky", ran, release, dispatch.NeedsApproval()))
	reply := func() *fakeModel {
		return &fakeModel{replies: []replyFunc{callTools(call{"c1", "risky", `{}`}), say("done")}}
	}
	base := store.NewMemory()
	deps := testDeps(reply(), box)
	deps.Env.Store = &crashingStore{Store: base, after: 2} // submitted, model_replied
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, contract.AgentConfig{}, deps)
	errs := make(chan error, 1)
	go func() {
		_, err := a.Submit(context.Background(), conductor.Text("go"))
		errs <- err
	}()
	waitPhase(t, a, contract.PhaseAwaitingApproval)
	_ = a.Approve(ctxT(t), "c1", conductor.Decision{Approved: true}) // this record is lost in the crash
	if err := <-errs; !errors.Is(err, contract.ErrStore) {
		t.Fatalf("submit: %v", err)
	}
	_ = a.Close()

	deps2 := testDeps(&fakeModel{replies: []replyFunc{say("done")}}, box)
	deps2.Env.Store = base
	asked := 0
	deps2.People.Approver = func(context.Context, conductor.ApprovalRequest) (conductor.Decision, error) {
		asked++
		return conductor.Decision{Approved: true}, nil
	}
	b := newAgent(t, contract.AgentConfig{}, deps2)
	snap, err := b.Resume(ctxT(t), "session_test")
	if err != nil || snap.Phase != contract.PhaseSettled || asked != 1 || len(ran) != 1 {
		t.Fatalf("resume: err %v phase %s asked %d ran %d", err, snap.Phase, asked, len(ran))
	}
	checkWellFormed(t, snap)
}

// TestFileStoreRoundTrip runs a session on the embedded file store, then
// a new agent on a reopened store resumes it, continues it, and the whole
// record replays.
func TestFileStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	open := func() store.Store {
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	box := toolBox(t, echoTool(t))
	deps := testDeps(&fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"on disk"}`}), say("stored")}}, box)
	deps.Env.Store = open()
	a := newAgent(t, contract.AgentConfig{}, deps)
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	_ = a.Close()

	deps2 := testDeps(&fakeModel{replies: []replyFunc{say("still here")}}, box)
	deps2.Env.Store = open()
	b := newAgent(t, contract.AgentConfig{}, deps2)
	if _, err := b.Resume(ctxT(t), "session_test"); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Submit(ctxT(t), conductor.Text("again"))
	if err != nil || snap.History.Len() != 6 {
		t.Fatalf("err %v history %d", err, snap.History.Len())
	}
	_ = b.Close()
	rules := cadence.New(contract.AgentConfig{Model: "gpt-4o", Tools: box.Descriptors()})
	if err := store.Replay(context.Background(), open(), rules, "session_test"); err != nil {
		t.Fatalf("replay: %v", err)
	}
}

// TestToolDoesNotRunWhenItsStartCannotBeRecorded: the store fails on the
// record of the step that starts the call (the model's reply), so the tool
// must not run: on resume nobody could tell whether it had.
func TestToolDoesNotRunWhenItsStartCannotBeRecorded(t *testing.T) {
	for range 20 {
		ran := make(chan string, 1)
		release := make(chan struct{})
		close(release)
		box := toolBox(t, gateTool(t, "act", ran, release))
		deps := testDeps(&fakeModel{replies: []replyFunc{callTools(call{"c1", "act", `{}`}), say("done")}}, box)
		deps.Env.Store = &crashingStore{Store: store.NewMemory(), after: 1} // submitted
		a := newAgent(t, contract.AgentConfig{}, deps)
		if _, err := a.Submit(ctxT(t), conductor.Text("go")); !errors.Is(err, contract.ErrStore) {
			t.Fatalf("submit: %v", err)
		}
		_ = a.Close()
		if len(ran) != 0 {
			t.Fatal("the tool ran although its start was never recorded")
		}
	}
}

// TestFailedSessionGoesOn: a session whose run faulted (the model failed)
// or was aborted is resumed by another agent without its old error, and
// the next Submit starts a new run that calls the model.
func TestFailedSessionGoesOn(t *testing.T) {
	fail := func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		return nil, &turn.ProviderError{Failure: contract.FailServer, Message: "overloaded"}
	}
	for _, tt := range []struct {
		name string
		end  func(a *conductor.Agent, started <-chan struct{}) error
		kind contract.ErrorKind
	}{
		{"model failed", func(*conductor.Agent, <-chan struct{}) error { return nil }, contract.KindModel},
		{"aborted", func(a *conductor.Agent, started <-chan struct{}) error {
			<-started
			return a.Abort(ctxT(t), contract.AbortNow)
		}, contract.KindAborted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := store.NewMemory()
			started := make(chan struct{})
			first := fail
			if tt.kind == contract.KindAborted {
				first = func(ctx context.Context, _ contract.ModelRequest) ([]turn.Chunk, error) {
					close(started)
					<-ctx.Done()
					return nil, ctx.Err()
				}
			}
			deps := testDeps(&fakeModel{replies: []replyFunc{first}}, nil)
			deps.Env.Store = base
			a := newAgent(t, contract.AgentConfig{}, deps)
			errs := make(chan error, 1)
			go func() { _, err := a.Submit(ctxT(t), conductor.Text("first")); errs <- err }()
			if err := tt.end(a, started); err != nil {
				t.Fatal(err)
			}
			if err := <-errs; !errors.Is(err, &contract.RunError{Kind: tt.kind}) {
				t.Fatalf("first run: %v, want kind %s", err, tt.kind)
			}
			_ = a.Close()

			model := &fakeModel{replies: []replyFunc{say("back again")}}
			deps2 := testDeps(model, nil)
			deps2.Env.Store = base
			b := newAgent(t, contract.AgentConfig{}, deps2)
			snap, err := b.Resume(ctxT(t), "session_test")
			if err != nil || snap.Phase != contract.PhaseFaulted || snap.Err == nil {
				t.Fatalf("resume: err %v, phase %s, run error %v", err, snap.Phase, snap.Err)
			}
			snap, err = b.Submit(ctxT(t), conductor.Text("try again"))
			if err != nil || snap.Phase != contract.PhaseSettled || snap.Err != nil {
				t.Fatalf("second run: err %v, phase %s", err, snap.Phase)
			}
			if last, _ := snap.History.Last(); len(model.Requests()) != 1 || last.Text() != "back again" {
				t.Errorf("model calls %d, last turn %q", len(model.Requests()), last.Text())
			}
			_ = b.Close()
		})
	}
}

// TestResumeUnderAnotherConfigReplays: a run resumed by an agent whose
// config differs from the one that started it (here, one more tool) goes
// on under the resuming agent's config, and the session replays: the
// resume records that config, as a submit records its own.
func TestResumeUnderAnotherConfigReplays(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	deps := testDeps(&fakeModel{replies: []replyFunc{callTools(call{"q1", "ask_human", `{"question":"Which city?"}`})}}, toolBox(t, dispatch.AskHuman(""), echoTool(t)))
	deps.Env.Store = st
	closeWhileAsked(t, newAgent(t, contract.AgentConfig{}, deps), contract.PhaseAwaitingHuman)
	shout := dispatch.MustFunc("shout", "Shouts.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		return in.Text + "!", nil
	})
	model := &fakeModel{replies: []replyFunc{say("Bergen it is.")}}
	deps2 := testDeps(model, toolBox(t, dispatch.AskHuman(""), echoTool(t), shout))
	deps2.Env.Store = st
	deps2.People.Answerer = func(context.Context, conductor.QuestionRequest) (string, error) { return "Bergen", nil }
	snap, err := newAgent(t, contract.AgentConfig{}, deps2).Resume(ctx, "session_test")
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("resumed run %s with %v", snap.Phase, err)
	}
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the resumed run made %d model calls, want 1", len(reqs))
	}
	if n := len(reqs[0].Tools); n != 3 {
		t.Fatalf("the resumed run's model call was offered %d tools, want the resuming agent's 3", n)
	}
	if err := store.Replay(ctx, st, cadence.New(contract.AgentConfig{Model: "other"}), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
