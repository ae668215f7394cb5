package conductor_test

import (
	"context"
	"encoding/hex"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/google/go-cmp/cmp"
	"github.com/zeebo/blake3"
)

// requestTexts lists the text of every turn a model call was sent.
func requestTexts(req contract.ModelRequest) []string {
	var out []string
	for _, turn := range req.History.Turns() {
		s := turn.Text()
		for _, c := range turn.Calls() {
			s += "call:" + c.Name
		}
		for _, r := range turn.Results() {
			s += "result:" + r.Content
		}
		out = append(out, s)
	}
	return out
}

func TestFailedRunStaysOutOfTheNextRun(t *testing.T) {
	for _, tc := range []struct {
		policy contract.FailedRunsPolicy
		want   []string
	}{
		{"", []string{"[The previous request ended with an error and its turns are left out of this conversation: baton: model: invalid_request: turn: provider invalid_request: script exhausted]", "second"}},
		{contract.FailedRunsKeep, []string{"first", "call:echo", "result:x", "second"}},
	} {
		t.Run(string(tc.policy)+"default", func(t *testing.T) {
			m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"x"}`}), nil, say("ok")}}
			st := store.NewMemory()
			deps := testDeps(m, toolBox(t, echoTool(t)))
			deps.Env.Store = st
			a := newAgent(t, contract.AgentConfig{FailedRuns: tc.policy}, deps)
			if _, err := a.Submit(ctxT(t), conductor.Text("first")); !errors.Is(err, contract.ErrModel) {
				t.Fatalf("first run: %v", err)
			}
			snap, err := a.Submit(ctxT(t), conductor.Text("second"))
			if err != nil {
				t.Fatal(err)
			}
			reqs := m.Requests()
			if diff := cmp.Diff(tc.want, requestTexts(reqs[len(reqs)-1])); diff != "" {
				t.Errorf("third model call mismatch (-want +got):\n%s", diff)
			}
			// The session keeps every turn either way, and replays.
			if snap.History.Turns()[0].Text() != "first" {
				t.Errorf("history lost the failed run: %+v", snap.History.Turns()[0])
			}
			records, err := st.Records(ctxT(t), a.SessionID())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conductor.ReplayEvents(cadence.New(contract.AgentConfig{Model: "other"}), a.SessionID(), records, 0); err != nil {
				t.Fatalf("replay: %v", err)
			}
		})
	}
}

func TestRetrievalFailureFaultsTheRun(t *testing.T) {
	boom := errors.New("index offline")
	for _, optional := range []bool{false, true} {
		m := &fakeModel{replies: []replyFunc{say("answer")}}
		deps := testDeps(m, toolBox(t, echoTool(t)))
		deps.Retrieval.Retriever = func(context.Context, []contract.Turn) ([]contract.Turn, error) { return nil, boom }
		deps.Retrieval.Optional = optional
		a := newAgent(t, contract.AgentConfig{}, deps)
		snap, err := a.Submit(ctxT(t), conductor.Text("what does the handbook say?"))
		if optional {
			if err != nil || snap.FinalText() != "answer" {
				t.Errorf("optional retriever: err %v final %q", err, snap.FinalText())
			}
			continue
		}
		if !errors.Is(err, contract.ErrRetrieval) || snap.Phase != contract.PhaseFaulted || !strings.Contains(err.Error(), "index offline") {
			t.Fatalf("err %v phase %s, want a retrieval fault", err, snap.Phase)
		}
		if n := len(m.Requests()); n != 0 {
			t.Errorf("the model was called %d times without its context", n)
		}
	}
}

func TestNoProgressStopsACyclingModel(t *testing.T) {
	var replies []replyFunc
	for i := range 12 {
		replies = append(replies, callTools(call{"", "echo", []string{`{"text":"a"}`, `{"text":"b"}`, `{"text":"c"}`}[i%3]}))
	}
	m := &fakeModel{replies: replies}
	a := newAgent(t, contract.AgentConfig{LoopGuard: contract.LoopGuard{Warn: 2, Critical: 3}}, testDeps(m, toolBox(t, echoTool(t))))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if !errors.Is(err, contract.ErrLoop) || !strings.Contains(err.Error(), "no_progress") {
		t.Fatalf("err %v", err)
	}
	if n := len(m.Requests()); n != 6 || snap.TurnCount() != 6 {
		t.Errorf("model calls %d (turns %d), want 6: three new, then three repeats", n, snap.TurnCount())
	}
}

func TestRoundEventsAndResultAccessors(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"hi"}`}), say("all done")}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	a := newAgent(t, contract.AgentConfig{MaxTurns: 7}, deps)
	var rec recorder
	defer a.Subscribe(rec.add)()
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if got := snap.FinalText(); got != "all done" {
		t.Errorf("FinalText %q", got)
	}
	calls := snap.ToolCalls()
	if len(calls) != 1 || calls[0].Call.Name != "echo" || calls[0].Result == nil || calls[0].Result.Content != "hi" {
		t.Errorf("ToolCalls %+v", calls)
	}
	if snap.TurnCount() != 2 || snap.WallTime() <= 0 {
		t.Errorf("TurnCount %d WallTime %s", snap.TurnCount(), snap.WallTime())
	}
	waitFor(t, func() bool { return slices.Contains(rec.kinds(true), contract.EvRunSettled) })
	var rounds [][2]int
	rec.mu.Lock()
	for _, ev := range rec.events {
		if ev.Kind == contract.EvTurnStarted {
			rounds = append(rounds, [2]int{ev.Round, ev.MaxRounds})
		}
	}
	rec.mu.Unlock()
	if diff := cmp.Diff([][2]int{{1, 7}, {2, 7}}, rounds); diff != "" {
		t.Errorf("turn_started mismatch (-want +got):\n%s", diff)
	}
}

func TestMessageCountTriggersCompaction(t *testing.T) {
	var replies []replyFunc
	for i := range 4 {
		replies = append(replies, callTools(call{"", "echo", `{"text":"` + strings.Repeat("word ", 40+i) + `"}`}))
	}
	m := &summarizingModel{fakeModel: &fakeModel{replies: append(replies, say("done"))}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	cfg := contract.AgentConfig{Compaction: contract.CompactionPolicy{MaxMessages: 6, KeepRecent: 2}}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if m.summaries.Load() == 0 || snap.History.Turns()[0].Mark != contract.MarkSummary {
		t.Errorf("summaries %d, first turn %+v: the message count did not trigger compaction", m.summaries.Load(), snap.History.Turns()[0])
	}
}

func TestCharacterCountTriggersCompaction(t *testing.T) {
	m := &summarizingModel{fakeModel: &fakeModel{replies: []replyFunc{callTools(call{"", "big", `{}`}), callTools(call{"", "big", `{"again":1}`}), say("done")}}}
	deps := testDeps(m, toolBox(t, bigTool(t)))
	cfg := contract.AgentConfig{Compaction: contract.CompactionPolicy{MaxChars: 4000, KeepRecent: 2}}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if m.summaries.Load() == 0 || snap.History.Turns()[0].Mark != contract.MarkSummary {
		t.Errorf("summaries %d: the character count did not trigger compaction", m.summaries.Load())
	}
}

func TestSamplingReachesTheProviderAndIsRecorded(t *testing.T) {
	temp, seed, serial := 0.3, int64(11), false
	sampling := contract.Sampling{Temperature: &temp, Seed: &seed, Stop: []string{"END"}, ParallelToolCalls: &serial, ToolChoice: "echo"}
	m := &fakeModel{replies: []replyFunc{say("ok")}}
	st := store.NewMemory()
	deps := testDeps(m, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	a := newAgent(t, contract.AgentConfig{Sampling: sampling}, deps)
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sampling, m.Requests()[0].Sampling); diff != "" {
		t.Errorf("request sampling mismatch (-want +got):\n%s", diff)
	}
	records, err := st.Records(ctxT(t), a.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	sub := records[0].Signal.(contract.Submitted)
	if diff := cmp.Diff(sampling, sub.Config.Sampling); diff != "" {
		t.Errorf("recorded sampling mismatch (-want +got):\n%s", diff)
	}
}

func TestBadSamplingIsAConfigError(t *testing.T) {
	hot, wide := 2.5, 0.0
	cfg := contract.AgentConfig{Model: "m", Sampling: contract.Sampling{Temperature: &hot, TopP: &wide, Stop: []string{"a", ""}, ToolChoice: "nope"}}
	_, err := conductor.CreateAgent(cfg, testDeps(&fakeModel{}, toolBox(t, echoTool(t))))
	re, ok := contract.AsRunError(err)
	if !ok || re.Kind != contract.KindConfig {
		t.Fatalf("err %v, want a config error", err)
	}
	var fields []string
	for _, f := range re.Fields {
		fields = append(fields, f.Field)
	}
	want := []string{"Sampling.Temperature", "Sampling.TopP", "Sampling.Stop[1]", "Sampling.ToolChoice"}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("fields mismatch (-want +got):\n%s", diff)
	}
}

func TestWeakModelToolCalls(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"n1", "None", ``}),
		func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
			return []turn.Chunk{{Kind: turn.ChunkText, Text: "```json\n{\"name\": \"echo\", \"arguments\": {\"text\": \"from text\"}}\n```"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}, nil
		},
		say("done"),
	}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	deps.Model.TextToolCalls = true
	a := newAgent(t, contract.AgentConfig{}, deps)
	// The None call is dropped: the first reply has no call, so the run
	// settles on it with nothing run as an unknown tool.
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil || len(snap.ToolCalls()) != 0 || snap.TurnCount() != 1 {
		t.Fatalf("err %v calls %+v turns %d", err, snap.ToolCalls(), snap.TurnCount())
	}
	snap, err = a.Submit(ctxT(t), conductor.Text("again"))
	if err != nil {
		t.Fatal(err)
	}
	calls := snap.ToolCalls()
	if len(calls) != 1 || calls[0].Call.Name != "echo" || calls[0].Result == nil || calls[0].Result.Content != "from text" || snap.FinalText() != "done" {
		t.Errorf("calls %+v final %q: the JSON text was not run as a call", calls, snap.FinalText())
	}
}

// completingModel fails every stream before its first chunk and answers
// without streaming.
type completingModel struct{ plain atomic.Int32 }

func (m *completingModel) Stream(context.Context, contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailStream, Message: "this server does not stream"})
	}
}

func (m *completingModel) Complete(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
	m.plain.Add(1)
	return []turn.Chunk{{Kind: turn.ChunkText, Text: "plain answer"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}, nil
}

func TestNonStreamingFallbackAndWaitingPulse(t *testing.T) {
	m := &completingModel{}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil || snap.FinalText() != "plain answer" || m.plain.Load() != 1 {
		t.Fatalf("err %v final %q plain calls %d", err, snap.FinalText(), m.plain.Load())
	}

	release := make(chan struct{})
	slow := &fakeModel{replies: []replyFunc{blockUntil(release, say("at last"))}}
	deps = testDeps(slow, toolBox(t, echoTool(t)))
	deps.Model.WaitingAfter = 2 * time.Millisecond
	a = newAgent(t, contract.AgentConfig{}, deps)
	var rec recorder
	defer a.Subscribe(rec.add)()
	done := submitAsync(a, "go")
	waitFor(t, func() bool { return slices.Contains(rec.kinds(false), contract.EvWaiting) })
	close(release)
	if res := <-done; res.err != nil || res.snap.FinalText() != "at last" {
		t.Fatalf("err %v final %q", res.err, res.snap.FinalText())
	}
}

func TestProjectInstructionsAndWorkDir(t *testing.T) {
	repo := t.TempDir()
	sub := filepath.Join(repo, "svc", "api")
	for _, d := range []string{filepath.Join(repo, ".git"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(repo, "AGENTS.md"), "Use tabs.\n")
	write(filepath.Join(sub, "AGENTS.md"), "This service speaks JSON.\n")
	write(filepath.Join(repo, "svc", "NOTES.md"), "not asked for\n")

	var seen string
	where, err := dispatch.Func("where", "Says where it runs.", func(ctx context.Context, _ struct{}) (string, error) {
		seen = dispatch.WorkDir(ctx)
		return seen, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "where", `{}`}), say("ok")}}
	st := store.NewMemory()
	deps := testDeps(m, toolBox(t, where))
	deps.Env.Store, deps.Env.WorkDir, deps.Env.Instructions = st, sub, []string{"AGENTS.md"}
	a := newAgent(t, contract.AgentConfig{System: "Be brief."}, deps)
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	want := "Be brief.\n\nInstructions from AGENTS.md:\n\nUse tabs.\n\nInstructions from svc/api/AGENTS.md:\n\nThis service speaks JSON."
	if diff := cmp.Diff(want, m.Requests()[1].System); diff != "" {
		t.Errorf("system prompt mismatch (-want +got):\n%s", diff)
	}
	if seen != sub {
		t.Errorf("tool saw working directory %q, want %q", seen, sub)
	}
	records, err := st.Records(ctxT(t), a.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range records[0].Signal.(contract.Submitted).Instructions {
		names = append(names, in.Name+" "+in.Hash)
	}
	b3 := func(s string) string { sum := blake3.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	if diff := cmp.Diff([]string{"AGENTS.md " + b3("Use tabs.\n"), "svc/api/AGENTS.md " + b3("This service speaks JSON.\n")}, names); diff != "" {
		t.Errorf("recorded instructions mismatch (-want +got):\n%s", diff)
	}
	// Replay needs no files: the text travels in the record.
	os.RemoveAll(repo)
	if _, err := conductor.ReplayEvents(cadence.New(contract.AgentConfig{Model: "other"}), a.SessionID(), records, 0); err != nil {
		t.Fatalf("replay without the files: %v", err)
	}

	if _, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: m}, Env: conductor.Env{WorkDir: filepath.Join(repo, "gone")}}); err == nil || !strings.Contains(err.Error(), "Deps.Env.WorkDir") {
		t.Errorf("a missing WorkDir gave %v, want a config error naming it", err)
	}
}

func TestRetrievalFailureWhileARunIsInFlight(t *testing.T) {
	release := make(chan struct{})
	m := &fakeModel{replies: []replyFunc{blockUntil(release, say("first answer"))}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	var calls atomic.Int32
	deps.Retrieval.Retriever = func(context.Context, []contract.Turn) ([]contract.Turn, error) {
		if calls.Add(1) > 1 {
			return nil, errors.New("index offline")
		}
		return nil, nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	done := submitAsync(a, "first")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if _, err := a.Submit(ctxT(t), conductor.Text("more")); !errors.Is(err, contract.ErrRetrieval) {
		t.Errorf("steering Submit with a failing retriever: %v, want a retrieval error", err)
	}
	close(release)
	if res := <-done; res.err != nil || res.snap.FinalText() != "first answer" {
		t.Fatalf("the run in flight: err %v final %q", res.err, res.snap.FinalText())
	}
}
