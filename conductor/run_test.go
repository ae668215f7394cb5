package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

func TestSubmitRunsToolsAndSettles(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"c1", "echo", `{"text":"one"}`}, call{"c2", "echo", `{"text":"two"}`}),
		say("done"),
	}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, echoTool(t))))
	rec := &recorder{}
	a.Subscribe(rec.add)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if snap.Phase != contract.PhaseSettled {
		t.Fatalf("phase %s", snap.Phase)
	}
	want := []contract.ToolResult{{CallID: "c1", Name: "echo", Content: "one"}, {CallID: "c2", Name: "echo", Content: "two"}}
	if diff := cmp.Diff(want, results(snap)); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	last, _ := snap.History.Last()
	if last.Text() != "done" {
		t.Errorf("last turn %q", last.Text())
	}
	u := snap.RunUsage
	if u.ModelCalls != 2 || u.ToolCalls != 2 || u.InputTokens != 30 || u.OutputTokens != 8 || u.WallNanos <= 0 {
		t.Errorf("usage %+v", u)
	}
	// Requests carry the tool results in call order before the second call.
	reqs := m.Requests()
	if len(reqs) != 2 || reqs[1].History.Len() != 3 {
		t.Fatalf("requests %d", len(reqs))
	}
	_ = a.Close()
	kinds := rec.kinds(true)
	if kinds[0] != contract.EvRunStarted || kinds[len(kinds)-1] != contract.EvRunSettled {
		t.Errorf("events %v", kinds)
	}
}

func TestEventsAreOrderedAndPersistedFirst(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"x"}`}), say("ok")}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	a := newAgent(t, contract.AgentConfig{}, deps)
	var last [2]uint64
	var bad atomic.Value
	a.Subscribe(func(ev contract.RunEvent) {
		cur := [2]uint64{ev.Seq, uint64(ev.Delta)}
		if cur[0] < last[0] || (cur[0] == last[0] && cur[1] <= last[1]) {
			bad.Store(ev)
		}
		last = cur
	})
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	_ = a.Close()
	if ev := bad.Load(); ev != nil {
		t.Fatalf("event out of order: %+v", ev)
	}
	got, err := a.EventsSince(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[len(got)-1].Kind != contract.EvRunSettled {
		t.Fatalf("replayed events %v", got)
	}
}

func TestUnknownToolAndMalformedArgumentsGoBackToTheModel(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"c1", "nope", `{}`}, call{"c2", "echo", `{"text": 5}`}),
		say("sorry"),
	}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, echoTool(t))))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	rs := results(snap)
	if len(rs) != 2 || !rs[0].IsError || !strings.Contains(rs[0].Content, "unknown tool") || !rs[1].IsError || !strings.Contains(rs[1].Content, "text") {
		t.Fatalf("results %+v", rs)
	}
}

func TestPanickingToolBecomesErrorResult(t *testing.T) {
	boom := rawTool(t, "boom", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) { panic("kaboom") })
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "boom", `{}`}), say("recovered")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, boom)))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	rs := results(snap)
	if len(rs) != 1 || !rs[0].IsError || !strings.Contains(rs[0].Content, "kaboom") || strings.Contains(rs[0].Content, "goroutine") {
		t.Fatalf("results %+v", rs)
	}
	if snap.Phase != contract.PhaseSettled {
		t.Fatalf("phase %s", snap.Phase)
	}
}

func TestTurnCapFaults(t *testing.T) {
	var replies []replyFunc
	for i := 0; i < 5; i++ {
		replies = append(replies, callTools(call{"c", "echo", `{"text":"` + strings.Repeat("x", i+1) + `"}`}))
	}
	m := &fakeModel{replies: replies}
	a := newAgent(t, contract.AgentConfig{MaxTurns: 3}, testDeps(m, toolBox(t, echoTool(t))))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if !errors.Is(err, contract.ErrMaxTurns) {
		t.Fatalf("err %v", err)
	}
	if len(m.Requests()) != 3 || snap.Phase != contract.PhaseFaulted {
		t.Fatalf("requests %d phase %s", len(m.Requests()), snap.Phase)
	}
}

func TestLoopGuardWarnsThenFaults(t *testing.T) {
	var replies []replyFunc
	for i := 0; i < 10; i++ {
		replies = append(replies, callTools(call{"", "echo", `{"text":"same"}`}))
	}
	m := &fakeModel{replies: replies}
	a := newAgent(t, contract.AgentConfig{LoopGuard: contract.LoopGuard{Warn: 2, Critical: 4}}, testDeps(m, toolBox(t, echoTool(t))))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if !errors.Is(err, contract.ErrLoop) {
		t.Fatalf("err %v", err)
	}
	reminders := 0
	for _, turn := range snap.History.Turns() {
		if turn.Mark == contract.MarkReminder {
			reminders++
		}
	}
	if reminders != 1 || len(m.Requests()) != 4 {
		t.Fatalf("reminders %d requests %d", reminders, len(m.Requests()))
	}
}

func TestSubscriberThatBlocksForeverDoesNotStallTheRun(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"x"}`}), say("ok")}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	deps.Env.EventBuffer = 2
	a := newAgent(t, contract.AgentConfig{}, deps)
	stuck := make(chan struct{})
	got := make(chan contract.RunEvent, 100)
	first := true
	unsub := a.Subscribe(func(ev contract.RunEvent) {
		if first {
			first = false
			<-stuck
		}
		got <- ev
	})
	panicky := a.Subscribe(func(contract.RunEvent) { panic("subscriber bug") })
	defer panicky()
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("err %v phase %s", err, snap.Phase)
	}
	close(stuck)
	deadline := time.After(5 * time.Second)
	for {
		select {
		case ev := <-got:
			if ev.Kind == contract.EvLag {
				if ev.Missed <= 0 {
					t.Fatalf("lag without count: %+v", ev)
				}
				unsub()
				return
			}
		case <-deadline:
			t.Fatal("no lag event for the stuck subscriber")
		}
	}
}

func TestCreateAgentNamesEveryBadField(t *testing.T) {
	_, err := conductor.CreateAgent(contract.AgentConfig{MaxTurns: -1, Tools: []contract.ToolDescriptor{{Name: "ghost"}}}, conductor.Deps{})
	re, ok := contract.AsRunError(err)
	if !ok || re.Kind != contract.KindConfig {
		t.Fatalf("err %v", err)
	}
	var fields []string
	for _, f := range re.Fields {
		fields = append(fields, f.Field)
	}
	want := []string{"Deps.Model.Provider", "Tools[0]", "Model", "MaxTurns"}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("fields mismatch (-want +got):\n%s", diff)
	}
}

func TestSubmitContextCancelAborts(t *testing.T) {
	release := make(chan struct{})
	m := &fakeModel{replies: []replyFunc{blockUntil(release, say("late"))}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, nil))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(m.Requests()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	snap, err := a.Submit(ctx, conductor.Text("go"))
	if !errors.Is(err, contract.ErrAborted) || snap.Phase != contract.PhaseFaulted {
		t.Fatalf("err %v phase %s", err, snap.Phase)
	}
}

func TestHooksShapeTheRun(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"a"}`}, call{"c2", "echo", `{"text":"b"}`}), say("ok")}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	var ended atomic.Bool
	deps.Hooks.BeforeModel("system", 0, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		req.System = "rewritten"
		return conductor.Verdict{}, nil
	})
	deps.Hooks.AfterModel("trouble", 0, func(context.Context, contract.Signal) error { return errors.New("hook trouble is only logged") })
	deps.Hooks.BeforeTool("policy", 0, func(_ context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
		if c.ID == "c2" {
			return conductor.Verdict{Block: "policy forbids b"}, nil
		}
		return conductor.Verdict{}, nil
	})
	deps.Hooks.AfterTool("upper", 0, func(_ context.Context, c contract.ToolCall, out *contract.ToolOutcome) error {
		out.Content = strings.ToUpper(out.Content)
		return nil
	})
	deps.Hooks.OnRunEnd("end", 0, func(context.Context, contract.RunSnapshot) {
		ended.Store(true)
		panic("a panicking hook is only logged")
	})
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	rs := results(snap)
	if rs[0].Content != "A" || !rs[1].IsError || !strings.Contains(rs[1].Content, "policy forbids b") {
		t.Fatalf("results %+v", rs)
	}
	if m.Requests()[0].System != "rewritten" || !ended.Load() {
		t.Fatal("before_model or on_run_end hook not applied")
	}
}

func TestRetrieverIsRecordedInTheSubmit(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{say("ok")}}
	deps := testDeps(m, nil)
	deps.Env.Store = store.NewMemory()
	var asked atomic.Int32
	deps.Retrieval.Retriever = func(_ context.Context, in []contract.Turn) ([]contract.Turn, error) {
		asked.Add(1)
		return []contract.Turn{contract.UserText("fact: the sky is green")}, nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("what colour is the sky?"))
	if err != nil {
		t.Fatal(err)
	}
	first := snap.History.Turns()[0]
	if asked.Load() != 1 || first.Mark != contract.MarkRetrieved || !strings.Contains(first.Text(), "green") {
		t.Fatalf("first turn %+v", first)
	}
	// A fresh agent resumes the session from the store with no retriever.
	deps2 := testDeps(&fakeModel{}, nil)
	deps2.Env.Store = deps.Env.Store
	_ = a.Close()
	b := newAgent(t, contract.AgentConfig{}, deps2)
	got, err := b.Resume(ctxT(t), snap.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.History.Equal(snap.History) {
		t.Fatal("resumed history differs")
	}
}

var _ = dispatch.Idempotent

func TestSubmitRefusesAStoredSessionNotResumed(t *testing.T) {
	deps := testDeps(&fakeModel{replies: []replyFunc{say("ok")}}, nil)
	deps.Env.Store = store.NewMemory()
	a := newAgent(t, contract.AgentConfig{}, deps)
	if _, err := a.Submit(ctxT(t), conductor.Text("hi")); err != nil {
		t.Fatal(err)
	}
	_ = a.Close()
	b := newAgent(t, contract.AgentConfig{}, deps)
	_, err := b.Submit(ctxT(t), conductor.Text("again"))
	if !errors.Is(err, contract.ErrConfig) || !strings.Contains(err.Error(), "Resume") {
		t.Fatalf("err %v", err)
	}
}

func TestRetrievedTurnsThatCannotStandInHistoryAreDropped(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{say("ok")}}
	deps := testDeps(m, nil)
	deps.Retrieval.Retriever = func(context.Context, []contract.Turn) ([]contract.Turn, error) {
		return []contract.Turn{
			{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("a useful fact")}},
			{Role: contract.RoleUser},
			{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "x"})}},
		}, nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("question"))
	if err != nil {
		t.Fatal(err)
	}
	turns := snap.History.Turns()
	if len(turns) != 3 || turns[0].Mark != contract.MarkRetrieved || turns[0].Role != contract.RoleUser || turns[0].Text() != "a useful fact" {
		t.Fatalf("history %+v", turns)
	}
}

// A Submit refused before anything was committed leaves the session free
// for another agent, even while the refused agent stays open.
func TestRefusedSubmitReleasesTheSession(t *testing.T) {
	deps := testDeps(&fakeModel{replies: []replyFunc{say("ok")}}, nil)
	deps.Env.Store = store.NewMemory()
	a := newAgent(t, contract.AgentConfig{}, deps)
	if _, err := a.Submit(ctxT(t), conductor.Text("hi")); err != nil {
		t.Fatal(err)
	}
	_ = a.Close()
	stale := newAgent(t, contract.AgentConfig{}, deps) // same id, not resumed
	if _, err := stale.Submit(ctxT(t), conductor.Text("again")); !errors.Is(err, contract.ErrConfig) {
		t.Fatalf("stale submit: %v", err)
	}
	deps2 := testDeps(&fakeModel{}, nil)
	deps2.Env.Store = deps.Env.Store
	fresh := newAgent(t, contract.AgentConfig{}, deps2)
	if _, err := fresh.Resume(ctxT(t), "session_test"); err != nil {
		t.Fatalf("resume while the refused agent is open: %v", err)
	}
}
