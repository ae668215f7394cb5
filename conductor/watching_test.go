package conductor_test

import (
	"context"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// A run's stored bytes do not depend on whether anyone watches it: under
// a clock that moves on every read (FixedClock), a delta stamped only
// when published would move the times recorded after it.
func TestStoredRunDoesNotDependOnWatching(t *testing.T) {
	head := func(watch bool) store.Hash {
		st := store.NewMemory()
		p := &fakeModel{replies: []replyFunc{func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
			return []turn.Chunk{
				{Kind: turn.ChunkText, Text: "a"}, {Kind: turn.ChunkText, Text: "b"}, {Kind: turn.ChunkText, Text: "c"},
				{Kind: turn.ChunkStop, Stop: contract.StopEndTurn},
			}, nil
		}}}
		deps := testDeps(p, nil)
		deps.Env.Store = st
		a := newAgent(t, contract.AgentConfig{}, deps)
		if watch {
			a.Subscribe(func(contract.RunEvent) {})
		}
		if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
			t.Fatal(err)
		}
		h, err := st.Head(context.Background(), a.SessionID())
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if watched, unwatched := head(true), head(false); watched != unwatched {
		t.Errorf("the session's head is %s when watched, %s when not", watched, unwatched)
	}
}
