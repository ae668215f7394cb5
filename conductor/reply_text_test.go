package conductor_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// strayBytes replies with text, thinking, a signature and a tool call
// that carry bytes which are not UTF-8, as a provider's stream may, and a
// rune split across two chunks, which is whole once they are joined.
func strayBytes(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
	return []turn.Chunk{
		{Kind: turn.ChunkThinking, Text: "weighing \xff\xfe options", Signature: "sig\xc3"},
		{Kind: turn.ChunkText, Text: "caf\xc3"},
		{Kind: turn.ChunkText, Text: "\xa9 first, then \xe2\x82 more"},
		{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "c\xff1", Name: "echo"},
		{Kind: turn.ChunkToolCallArgs, Index: 0, Text: "{\"text\":\"na\xefve\"}"},
		{Kind: turn.ChunkToolCallEnd, Index: 0},
		{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
	}, nil
}

// A reply with bytes that are not UTF-8 is stored with them replaced, so
// the run must go on with the same text: the history a resume rebuilds
// from the store is the live one, turn for turn and count for count, and
// the session replays.
func TestReplyNotUTF8ResumesAsLive(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	deps := testDeps(&fakeModel{replies: []replyFunc{strayBytes, say("done \xff")}}, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	cfg := contract.AgentConfig{Model: "llama3.1:8b"}
	a := newAgent(t, cfg, deps)
	live, err := a.Submit(ctx, conductor.Text("go"))
	if err != nil || live.Phase != contract.PhaseSettled {
		t.Fatalf("err %v phase %s", err, live.Phase)
	}
	if got, want := live.History.Turns()[1].Blocks[1].Text, "café first, then \uFFFD more"; got != want {
		t.Errorf("reply text %q, want %q", got, want)
	}
	for i, turn := range live.History.Turns() {
		counted := turn
		counted.Tokens = 0
		if want := compactor.Estimate(cfg.Model, counted); turn.Tokens != want {
			t.Errorf("turn %d carries %d tokens, its text counts %d", i, turn.Tokens, want)
		}
	}

	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	deps2 := testDeps(&fakeModel{}, toolBox(t, echoTool(t)))
	deps2.Env.Store = st
	resumed, err := newAgent(t, cfg, deps2).Resume(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(live.History.Turns(), resumed.History.Turns()); diff != "" {
		t.Errorf("resumed history differs from the live one (-live +resumed):\n%s", diff)
	}
	if err := store.Replay(ctx, st, cadence.New(a.Config()), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
