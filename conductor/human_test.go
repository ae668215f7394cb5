package conductor_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// questions collects the question_asked events of an agent.
func questions(a *conductor.Agent) (<-chan contract.RunEvent, func()) {
	ch := make(chan contract.RunEvent, 16)
	stop := a.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvQuestionAsked {
			ch <- ev
		}
	})
	return ch, stop
}

func nextQuestion(t *testing.T, ctx context.Context, ch <-chan contract.RunEvent) contract.RunEvent {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-ctx.Done():
		t.Fatal("no question was asked")
	}
	return contract.RunEvent{}
}

func TestAskHumanAnswersLandInCallOrder(t *testing.T) {
	ctx := ctxT(t)
	model := &fakeModel{replies: []replyFunc{
		callTools(call{"q1", "ask_human", `{"question":"Which city?","choices":["Oslo","Bergen"]}`},
			call{"q2", "ask_human", `{"question":"When?"}`},
			call{"e1", "echo", `{"text":"hi"}`}),
		say("Bergen in May it is."),
	}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(model, toolBox(t, echoTool(t), dispatch.AskHuman(""))))
	asked, stop := questions(a)
	defer stop()
	done := submitAsync(a, "plan a trip")
	q1, q2 := nextQuestion(t, ctx, asked), nextQuestion(t, ctx, asked)
	if diff := cmp.Diff(&contract.Question{Text: "Which city?", Choices: []string{"Oslo", "Bergen"}}, q1.Question); diff != "" {
		t.Errorf("first question mismatch (-want +got):\n%s", diff)
	}
	if err := a.Answer(ctx, "nope", "x"); !errors.Is(err, conductor.ErrRejected) {
		t.Errorf("answer for an unknown call: %v, want ErrRejected", err)
	}
	if err := a.Answer(ctx, q2.Call.ID, "in May"); err != nil {
		t.Fatal(err)
	}
	if err := a.Answer(ctx, q2.Call.ID, "in June"); !errors.Is(err, conductor.ErrRejected) {
		t.Errorf("second answer for one call: %v, want ErrRejected", err)
	}
	if err := a.Answer(ctx, q1.Call.ID, "Bergen"); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	want := []contract.ToolResult{
		{CallID: "q1", Name: "ask_human", Content: "Bergen"},
		{CallID: "q2", Name: "ask_human", Content: "in May"},
		{CallID: "e1", Name: "echo", Content: "hi"},
	}
	if diff := cmp.Diff(want, results(res.snap)); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	if err := a.Answer(ctx, "q1", "late"); !errors.Is(err, conductor.ErrNoRun) {
		t.Errorf("answer after the run: %v, want ErrNoRun", err)
	}
}

func TestAskHumanWaitsPastTheToolTimeout(t *testing.T) {
	ctx := ctxT(t)
	model := &fakeModel{replies: []replyFunc{callTools(call{"q1", "ask_human", `{"question":"Ready?"}`}), say("ok")}}
	a := newAgent(t, contract.AgentConfig{ToolTimeout: 1}, testDeps(model, toolBox(t, dispatch.AskHuman(""))))
	asked, stop := questions(a)
	defer stop()
	done := submitAsync(a, "go")
	q := nextQuestion(t, ctx, asked)
	if got := a.Snapshot().Phase; got != contract.PhaseAwaitingHuman {
		t.Errorf("phase %s while the question is open, want awaiting_human", got)
	}
	if err := a.Answer(ctx, q.Call.ID, "yes"); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res.err != nil || results(res.snap)[0].Content != "yes" {
		t.Fatalf("run ended with %v, results %+v", res.err, results(res.snap))
	}
}

func TestAskHumanSteerSkipsAndAbortAnswers(t *testing.T) {
	ctx := ctxT(t)
	model := &fakeModel{replies: []replyFunc{
		callTools(call{"q1", "ask_human", `{"question":"Which city?"}`}),
		callTools(call{"q2", "ask_human", `{"question":"Really?"}`}),
	}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(model, toolBox(t, dispatch.AskHuman(""))))
	asked, stop := questions(a)
	defer stop()
	done := submitAsync(a, "plan a trip")
	nextQuestion(t, ctx, asked)
	if err := a.Steer(ctxT(t), conductor.Text("never mind, pick one yourself")); err != nil {
		t.Fatal(err)
	}
	nextQuestion(t, ctx, asked)
	if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if re, ok := contract.AsRunError(res.err); !ok || re.Kind != contract.KindAborted {
		t.Fatalf("run ended with %v, want aborted", res.err)
	}
	got := results(res.snap)
	if len(got) != 2 || got[0].Content != "skipped: steered" || !strings.HasPrefix(got[1].Content, "aborted:") {
		t.Errorf("results %+v, want the first skipped by the steer and the second aborted", got)
	}
}

func TestAnswererAnswers(t *testing.T) {
	ctx := ctxT(t)
	model := &fakeModel{replies: []replyFunc{callTools(call{"q1", "ask", `{"question":"Which city?"}`}), say("ok")}}
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("ask")))
	deps.People.Answerer = func(_ context.Context, req conductor.QuestionRequest) (string, error) {
		c, q := req.Call, req.Question
		return "answered " + c.ID + ": " + q.Text, nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctx, conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if got := results(snap)[0].Content; got != "answered q1: Which city?" {
		t.Errorf("result %q", got)
	}
}

const askChildEnv = "BATON_CONDUCTOR_ASK_CHILD_DIR"

// askChild is the child process of TestQuestionSurvivesRestart: it asks a
// question on a file store and dies as soon as the question is published,
// without closing anything.
func askChild(dir string) int {
	st, err := store.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	model := &fakeModel{replies: []replyFunc{callTools(call{"q1", "ask_human", `{"question":"Which city?","choices":["Oslo","Bergen"]}`})}}
	deps := testDeps(model, nil)
	deps.Env.Store = st
	box, _ := dispatch.NewToolBox(dispatch.AskHuman(""))
	deps.Tools.Box = box
	a, err := conductor.CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, deps)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	a.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvQuestionAsked {
			fmt.Println("asked", ev.Call.ID)
			os.Exit(0)
		}
	})
	_, err = a.Submit(context.Background(), conductor.Text("plan a trip"))
	fmt.Fprintln(os.Stderr, "the child should have exited:", err)
	return 4
}

func TestQuestionSurvivesRestart(t *testing.T) {
	// Under CI every test runs, -short or not.
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("spawns a process; run without -short")
	}
	ctx := ctxT(t)
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), askChildEnv+"="+dir)
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != "asked q1" {
		t.Fatalf("child: %v, output %q", err, out)
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	model := &fakeModel{replies: []replyFunc{say("Bergen it is.")}}
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps.Env.Store = st
	var asked []contract.Question
	deps.People.Answerer = func(_ context.Context, req conductor.QuestionRequest) (string, error) {
		asked = append(asked, req.Question)
		return "Bergen", nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Resume(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]contract.Question{{Text: "Which city?", Choices: []string{"Oslo", "Bergen"}}}, asked); diff != "" {
		t.Errorf("question asked after the restart mismatch (-want +got):\n%s", diff)
	}
	if snap.Phase != contract.PhaseSettled || results(snap)[0].Content != "Bergen" {
		t.Fatalf("resumed run %s with results %+v", snap.Phase, results(snap))
	}
	reqs := model.Requests()
	last, _ := reqs[len(reqs)-1].History.Last()
	if r := last.Results(); len(r) != 1 || r[0].Content != "Bergen" {
		t.Errorf("the model was not given the answer: %+v", last)
	}
}

// closeWhileAsked submits to a, closes a once its run asks its first
// question, and fails t unless the Submit then ended with ErrClosed, the
// run left in phase.
func closeWhileAsked(t *testing.T, a *conductor.Agent, phase contract.Phase) {
	t.Helper()
	asked, stop := questions(a)
	var mu sync.Mutex
	var detached [][]string
	a.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvRunDetached {
			mu.Lock()
			detached = append(detached, ev.Subflow)
			mu.Unlock()
		}
	})
	done := submitAsync(a, "plan a trip")
	nextQuestion(t, ctxT(t), asked)
	stop()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if res := <-done; !errors.Is(res.err, conductor.ErrClosed) || res.snap.Phase != phase {
		t.Fatalf("submit ended %s with %v, want ErrClosed in %s while the question waits", res.snap.Phase, res.err, phase)
	}
	// Close delivered what was published: the runs let go, children
	// first, the root last.
	mu.Lock()
	defer mu.Unlock()
	if len(detached) == 0 || len(detached[len(detached)-1]) != 0 {
		t.Errorf("run_detached events of %v, want the root's last", detached)
	}
}

// TestCloseKeepsAQuestionOpen: closing an agent whose run waits for a
// person does not abort the run; a new agent reopens it without waiting
// for its end, and the answer finishes it.
func TestCloseKeepsAQuestionOpen(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	deps := testDeps(&fakeModel{replies: []replyFunc{callTools(call{"q1", "ask_human", `{"question":"Which city?"}`})}}, toolBox(t, dispatch.AskHuman("")))
	deps.Env.Store = st
	closeWhileAsked(t, newAgent(t, contract.AgentConfig{}, deps), contract.PhaseAwaitingHuman)
	model := &fakeModel{replies: []replyFunc{say("Bergen it is.")}}
	deps2 := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps2.Env.Store = st
	b := newAgent(t, contract.AgentConfig{}, deps2)
	snap, err := b.Reopen(ctx, "session_test")
	if err != nil || snap.Phase != contract.PhaseAwaitingHuman || len(snap.PendingQuestions()) != 1 {
		t.Fatalf("reopened %s with %v, questions %+v", snap.Phase, err, snap.PendingQuestions())
	}
	ended := make(chan contract.RunSnapshot, 1)
	b.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvRunSettled {
			ended <- b.Snapshot()
		}
	})
	if err := b.Answer(ctx, "q1", "Bergen"); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-ended:
		if got := results(s); len(got) != 1 || got[0].Content != "Bergen" {
			t.Errorf("results %+v", got)
		}
	case <-ctx.Done():
		t.Fatal("the reopened run did not settle")
	}
}

// An Answerer that fails, by an error or a panic, leaves the question
// pending for Agent.Answer: the model never gets an answer no one gave.
func TestFailingAnswererLeavesTheQuestionPending(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail func() (string, error)
	}{
		{"error", func() (string, error) { return "", errors.New("no one at the desk") }},
		{"panic", func() (string, error) { panic("answerer crashed") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := ctxT(t)
			model := &fakeModel{replies: []replyFunc{callTools(call{"q1", "ask_human", `{"question":"Which city?"}`}), say("ok")}}
			deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
			returned := make(chan struct{})
			deps.People.Answerer = func(context.Context, conductor.QuestionRequest) (string, error) {
				defer close(returned)
				return tc.fail()
			}
			a := newAgent(t, contract.AgentConfig{}, deps)
			done := submitAsync(a, "plan a trip")
			<-returned
			// What the failed Answerer brought, if anything, is applied
			// within this window; the question must still be waiting.
			for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); runtime.Gosched() {
				if p := a.Snapshot().Phase; p != contract.PhaseAwaitingHuman {
					t.Fatalf("phase %s after the Answerer failed, want the question still waiting", p)
				}
			}
			if err := a.Answer(ctx, "q1", "Bergen"); err != nil {
				t.Fatal(err)
			}
			res := <-done
			if res.err != nil {
				t.Fatal(res.err)
			}
			want := []contract.ToolResult{{CallID: "q1", Name: "ask_human", Content: "Bergen"}}
			if diff := cmp.Diff(want, results(res.snap)); diff != "" {
				t.Errorf("results mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
