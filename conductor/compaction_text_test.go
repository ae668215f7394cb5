package conductor_test

import (
	"context"
	"fmt"
	"iter"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// summaryText answers summary requests with its text and otherwise
// plays its replies.
type summaryText struct {
	*fakeModel
	text string
}

func (m summaryText) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	if req.System == turn.SummarySystem {
		return (&fakeModel{replies: []replyFunc{say(m.text)}}).Stream(ctx, req)
	}
	return m.fakeModel.Stream(ctx, req)
}

// TestCompactionSummaryNotUTF8Replays: a provider's summary that is not
// valid UTF-8 is stored with its bad bytes replaced, so the history the
// run went on with must hold the same text; otherwise the summary's token
// estimate differs between the live run and its replay, and the session
// no longer replays.
func TestCompactionSummaryNotUTF8Replays(t *testing.T) {
	var replies []replyFunc
	for i := range 6 {
		replies = append(replies, callTools(call{"c", "big", fmt.Sprintf(`{"n":%d}`, i)}))
	}
	m := summaryText{fakeModel: &fakeModel{replies: append(replies, say("done"))}, text: "SUMMARY \xff\xfe read caf\xc3"}
	st := store.NewMemory()
	deps := testDeps(m, toolBox(t, bigTool(t)))
	deps.Env.Store = st
	cfg := contract.AgentConfig{Model: "scripted", Compaction: contract.CompactionPolicy{ContextWindow: 3000, TriggerRatio: 0.5, KeepRecent: 2}}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("read big outputs"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("err %v phase %s", err, snap.Phase)
	}
	if got, want := snap.History.Turns()[0].Text(), "SUMMARY \uFFFD read caf\uFFFD"; got != want {
		t.Errorf("summary turn %q, want %q", got, want)
	}
	if err := store.Replay(ctxT(t), st, cadence.New(a.Config()), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
