package conductor_test

import (
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// A host's input is counted for the agent's model before it reaches the
// loop, and the submit record carries the counts, so a resume or replay
// never tokenizes it; a count the host set itself is replaced.
func TestInputCarriesItsEstimate(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	deps := testDeps(&fakeModel{replies: []replyFunc{say("done")}}, toolBox(t))
	deps.Env.Store = st
	a := newAgent(t, contract.AgentConfig{Model: "gpt-4o"}, deps)
	given := contract.UserText("the fjord lies still under a low grey sky")
	given.Tokens = 99999
	snap, err := a.Submit(ctx, conductor.Input{Turns: []contract.Turn{given}, Text: "and the ferry is late again"})
	if err != nil {
		t.Fatal(err)
	}
	records, err := st.Records(ctx, snap.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	sub, ok := records[0].Signal.(contract.Submitted)
	if !ok || len(sub.Input) != 2 {
		t.Fatalf("first record %#v, want a submit of two turns", records[0].Signal)
	}
	for i, turn := range sub.Input {
		want := turn
		want.Tokens = 0
		if got, est := turn.Tokens, compactor.Estimate("gpt-4o", want); got != est {
			t.Errorf("input turn %d carries %d tokens, want the estimate %d", i, got, est)
		}
		if got := snap.History.Turns()[i].Tokens; got != turn.Tokens {
			t.Errorf("history turn %d has %d tokens, the record carried %d", i, got, turn.Tokens)
		}
	}
}

// A model's reply is counted for the agent's model by the worker that
// received it, and its record carries the count: a resume or replay
// never tokenizes it.
func TestReplyCarriesItsEstimate(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	deps := testDeps(&fakeModel{replies: []replyFunc{say("the ferry left at nine, an hour late")}}, toolBox(t))
	deps.Env.Store = st
	snap, err := newAgent(t, contract.AgentConfig{Model: "gpt-4o"}, deps).Submit(ctx, conductor.Text("when did it leave?"))
	if err != nil {
		t.Fatal(err)
	}
	records, err := st.Records(ctx, snap.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	var replies int
	for _, r := range records {
		reply, ok := r.Signal.(contract.ModelReplied)
		if !ok {
			continue
		}
		replies++
		want := reply.Reply
		want.Tokens = 0
		if got, est := reply.Reply.Tokens, compactor.Estimate("gpt-4o", want); got != est || got == 0 {
			t.Errorf("recorded reply carries %d tokens, want the estimate %d", got, est)
		}
	}
	if replies != 1 {
		t.Fatalf("%d replies recorded, want 1", replies)
	}
}
