package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// summarizingModel answers summary requests with a short summary (or a
// failure) and otherwise plays its replies.
type summarizingModel struct {
	*fakeModel
	fail      bool
	summaries atomic.Int32
}

func (m *summarizingModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	if req.System == turn.SummarySystem {
		m.summaries.Add(1)
		if m.fail {
			return func(yield func(turn.Chunk, error) bool) {
				yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "no summaries today"})
			}
		}
		return (&fakeModel{replies: []replyFunc{say("SUMMARY: the user wants big outputs read")}}).Stream(ctx, req)
	}
	return m.fakeModel.Stream(ctx, req)
}

func bigTool(t *testing.T) dispatch.Tool {
	return rawTool(t, "big", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{Content: strings.Repeat("lorem ipsum ", 400)}, nil
	})
}

func compactingRun(t *testing.T, fail bool) (contract.RunSnapshot, *summarizingModel, []string) {
	var replies []replyFunc
	for i := 0; i < 6; i++ {
		replies = append(replies, callTools(call{"c", "big", fmt.Sprintf(`{"n":%d}`, i)}))
	}
	m := &summarizingModel{fakeModel: &fakeModel{replies: append(replies, say("done"))}, fail: fail}
	deps := testDeps(m, toolBox(t, bigTool(t)))
	var summaries []string
	deps.Hooks.OnCompaction("collect", 0, func(_ context.Context, s string) { summaries = append(summaries, s) })
	cfg := contract.AgentConfig{Model: "scripted", Compaction: contract.CompactionPolicy{ContextWindow: 3000, TriggerRatio: 0.5, KeepRecent: 2}}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("read big outputs"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("err %v phase %s", err, snap.Phase)
	}
	checkWellFormed(t, snap)
	return snap, m, summaries
}

// TestCompactionThroughTheProvider: history over the trigger is condensed
// by a summary request to the provider; the model then sees the summary
// and the newest turns verbatim.
func TestCompactionThroughTheProvider(t *testing.T) {
	snap, m, summaries := compactingRun(t, false)
	if m.summaries.Load() == 0 || len(summaries) == 0 {
		t.Fatal("no summary was asked for")
	}
	first := snap.History.Turns()[0]
	if first.Mark != contract.MarkSummary || !strings.Contains(first.Text(), "SUMMARY") {
		t.Fatalf("history does not start with the summary: %+v", first)
	}
	reqs := m.Requests()
	last := reqs[len(reqs)-1]
	if last.History.Tokens() >= 3000 {
		t.Fatalf("the last request still carries %d tokens", last.History.Tokens())
	}
}

// TestCompactionFallsBackToDroppingToolOutputs: when the summary cannot
// be made, old tool outputs are dropped instead and the run goes on.
func TestCompactionFallsBackToDroppingToolOutputs(t *testing.T) {
	snap, m, summaries := compactingRun(t, true)
	if m.summaries.Load() == 0 || len(summaries) != 0 {
		t.Fatalf("summaries asked %d, hooked %d", m.summaries.Load(), len(summaries))
	}
	dropped := 0
	for _, r := range results(snap) {
		if !strings.Contains(r.Content, "lorem") {
			dropped++
		}
	}
	if dropped == 0 {
		t.Fatal("no tool output was dropped")
	}
}

func TestModelFailureAfterRetriesFaultsTheRun(t *testing.T) {
	attempts := 0
	fail := func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		attempts++
		return nil, &turn.ProviderError{Failure: contract.FailServer, Status: 503, Message: "overloaded"}
	}
	m := &fakeModel{replies: []replyFunc{fail, fail, fail}}
	deps := testDeps(m, nil)
	deps.Model.MaxRetries, deps.Model.Backoff, deps.Model.MaxBackoff = 2, time.Millisecond, time.Millisecond
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("hi"))
	if !errors.Is(err, contract.ErrModel) || snap.Phase != contract.PhaseFaulted || attempts != 3 {
		t.Fatalf("err %v phase %s attempts %d", err, snap.Phase, attempts)
	}
	if !strings.Contains(err.Error(), "overloaded") {
		t.Fatalf("error does not say why: %v", err)
	}
}

func TestToolTimeoutIsAnErrorResultAndTheRunGoesOn(t *testing.T) {
	hang := rawTool(t, "hang", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		<-ctx.Done()
		return contract.ToolOutcome{}, ctx.Err()
	}, dispatch.Timeout(50*time.Millisecond))
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "hang", `{}`}), say("it timed out")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, hang)))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("err %v phase %s", err, snap.Phase)
	}
	rs := results(snap)
	if len(rs) != 1 || !rs[0].IsError || !strings.Contains(rs[0].Content, "timed out") {
		t.Fatalf("results %+v", rs)
	}
}
