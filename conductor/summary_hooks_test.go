package conductor_test

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// sentModel is a summarizingModel that keeps every request it was sent,
// summary requests among them.
type sentModel struct {
	*summarizingModel
	mu   sync.Mutex
	sent []contract.ModelRequest
}

func (m *sentModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	m.mu.Lock()
	m.sent = append(m.sent, req)
	m.mu.Unlock()
	return m.summarizingModel.Stream(ctx, req)
}

// hookedCompactingRun runs compactingRun's workload, with a secret in
// the prompt, under the before-model hook and returns the run's end,
// what the provider was sent and the compaction events' texts.
func hookedCompactingRun(t *testing.T, hook conductor.BeforeModelHook) (contract.RunSnapshot, *sentModel, []string) {
	t.Helper()
	return compactingRunHooked(t, func(h *conductor.Hooks) { h.BeforeModel("hook", 0, hook) })
}

// compactingRunHooked is hookedCompactingRun with the hooks register
// adds.
func compactingRunHooked(t *testing.T, register func(*conductor.Hooks)) (contract.RunSnapshot, *sentModel, []string) {
	t.Helper()
	var replies []replyFunc
	for i := 0; i < 6; i++ {
		replies = append(replies, callTools(call{"c", "big", fmt.Sprintf(`{"n":%d}`, i)}))
	}
	m := &sentModel{summarizingModel: &summarizingModel{fakeModel: &fakeModel{replies: append(replies, say("done"))}}}
	deps := testDeps(m, toolBox(t, bigTool(t)))
	register(&deps.Hooks)
	cfg := contract.AgentConfig{Model: "scripted", Compaction: contract.CompactionPolicy{ContextWindow: 3000, TriggerRatio: 0.5, KeepRecent: 2}}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("read big outputs; the key is sk-live-0123456789"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("err %v phase %s", err, snap.Phase)
	}
	evs, err := a.EventsSince(ctxT(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	var compactions []string
	for _, ev := range evs {
		if ev.Kind == contract.EvCompaction {
			compactions = append(compactions, ev.Text)
		}
	}
	return snap, m, compactions
}

// scrub is a host's before-model hook that takes a secret out of every
// user turn a model call carries.
func scrub(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
	turns := req.History.Turns()
	for i, tn := range turns {
		if tn.Role == contract.RoleUser && strings.Contains(tn.Text(), "sk-live-") {
			turns[i] = contract.UserText(strings.ReplaceAll(tn.Text(), "sk-live-0123456789", "[secret]"))
		}
	}
	req.History = contract.HistoryOf(turns...)
	return conductor.Verdict{}, nil
}

// TestBeforeModelHooksSeeSummaryRequests: a host's hook that takes
// secrets out of model calls sees the summary request too, so the secret
// never reaches the provider, not even inside the prompt that asks for a
// summary of the history holding it.
func TestBeforeModelHooksSeeSummaryRequests(t *testing.T) {
	_, m, _ := hookedCompactingRun(t, scrub)
	if m.summaries.Load() == 0 {
		t.Fatal("no summary was asked for")
	}
	for i, req := range m.sent {
		for _, tn := range req.History.Turns() {
			if strings.Contains(tn.Text(), "sk-live-") {
				t.Errorf("request %d (system %.30q) carries the secret the hook takes out", i, req.System)
			}
		}
	}
}

// TestBeforeModelHooksTellSummaryRequestsApart: the hooks see each
// summary request marked Summary and every turn's request unmarked, so
// a hook can treat them apart.
func TestBeforeModelHooksTellSummaryRequestsApart(t *testing.T) {
	var mu sync.Mutex
	var summaries, turns int
	_, m, _ := hookedCompactingRun(t, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		mu.Lock()
		defer mu.Unlock()
		if req.Summary != (req.System == turn.SummarySystem) {
			t.Errorf("request marked Summary=%v with system %.30q", req.Summary, req.System)
		}
		if req.Summary {
			summaries++
		} else {
			turns++
		}
		return conductor.Verdict{}, nil
	})
	if got := int(m.summaries.Load()); summaries != got || turns != len(m.sent)-got {
		t.Errorf("hooks saw %d summary and %d turn requests; the provider was sent %d and %d", summaries, turns, got, len(m.sent)-got)
	}
}

// TestBlockedSummaryRequestFallsBack: a hook that blocks summary
// requests keeps them from the provider, and the run compacts by
// dropping old tool outputs as when a summary fails, saying why.
func TestBlockedSummaryRequestFallsBack(t *testing.T) {
	snap, m, compactions := hookedCompactingRun(t, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		if req.Summary {
			return conductor.Verdict{Block: "summaries are not allowed here"}, nil
		}
		return conductor.Verdict{}, nil
	})
	if n := m.summaries.Load(); n != 0 {
		t.Errorf("the provider was sent %d summary requests the hook blocked", n)
	}
	if len(compactions) == 0 || !strings.Contains(compactions[0], "fallback") || !strings.Contains(compactions[0], "summaries are not allowed here") {
		t.Errorf("compaction events %q, want a fallback naming the block", compactions)
	}
	for _, r := range results(snap) {
		if !strings.Contains(r.Content, "lorem") {
			return
		}
	}
	t.Error("no tool output was dropped")
}

// TestAfterModelHooksSeeSummaryReplies: an after-model hook that audits
// what the model answered sees the reply to each summary request, its
// turn marked MarkSummary, as well as every turn's reply, unmarked; the
// summary text it sees is the one the history then holds.
func TestAfterModelHooksSeeSummaryReplies(t *testing.T) {
	var mu sync.Mutex
	var summaries []string
	var turns int
	snap, m, _ := compactingRunHooked(t, func(h *conductor.Hooks) {
		h.AfterModel("audit", 0, func(_ context.Context, sig contract.Signal) error {
			mu.Lock()
			defer mu.Unlock()
			reply, ok := sig.(contract.ModelReplied)
			if !ok {
				t.Errorf("hook saw %T, want only replies", sig)
				return nil
			}
			if reply.Reply.Mark == contract.MarkSummary {
				summaries = append(summaries, reply.Reply.Text())
			} else {
				turns++
			}
			return nil
		})
	})
	got := int(m.summaries.Load())
	if got == 0 {
		t.Fatal("no summary was asked for")
	}
	if len(summaries) != got || turns != len(m.sent)-got {
		t.Errorf("hooks saw %d summary and %d turn replies; the provider answered %d and %d", len(summaries), turns, got, len(m.sent)-got)
	}
	var held []string
	for _, tn := range snap.History.Turns() {
		if tn.Mark == contract.MarkSummary {
			held = append(held, tn.Text())
		}
	}
	for _, s := range summaries {
		if !slices.Contains(held, s) {
			t.Errorf("hook saw summary %q, which the history %q does not hold", s, held)
		}
	}
}
