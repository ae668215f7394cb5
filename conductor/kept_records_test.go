package conductor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// takenStore encodes every record at the moment Record takes it, then
// hands it to the memory store, which may keep it unencoded until read.
type takenStore struct {
	store.Store
	mu    sync.Mutex
	taken map[string][][]byte
}

func (s *takenStore) Record(ctx context.Context, id string, rec contract.Record) error {
	b, encErr := contract.EncodeRecord(rec)
	err := s.Store.(store.Recorder).Record(ctx, id, rec)
	if err == nil && encErr == nil {
		s.mu.Lock()
		s.taken[id] = append(s.taken[id], b)
		s.mu.Unlock()
	}
	return err
}

// The records the memory store keeps unencoded until it is read (replies
// and results) name the same bytes as they would have when taken: nothing
// the conductor did after (keys, hooks rewriting calls and outcomes, a
// delegate's child, calls with duplicate or empty ids, invalid UTF-8)
// changed what they refer to.
func TestRecordsKeptUnencodedDoNotChange(t *testing.T) {
	ctx := ctxT(t)
	inner := store.NewMemory()
	st := &takenStore{Store: inner, taken: map[string][][]byte{}}
	keyed := dispatch.WithApprovalKeys(echoTool(t, dispatch.NeedsApproval()), func(args json.RawMessage) ([]string, error) {
		var in echoIn
		_ = json.Unmarshal(args, &in)
		return strings.Fields(in.Text), nil
	})
	turns := 0
	model := agentsModel{
		"parent": func(_ context.Context, req contract.ModelRequest) replyFunc {
			turns++
			switch turns {
			case 1:
				return callTools(call{"c1", "echo", `{"text":"a b"}`}, call{"c1", "echo", `{"text":"rm -rf /"}`}, call{"", "delegate_writer", `{"task":"a poem"}`})
			case 2:
				return callTools(call{"c2", "echo", `{"text":"a"}`}, call{"c3", "echo", "{\"text\":\"\xff bad\"}"})
			}
			return say("done")
		},
		"writer": func(_ context.Context, req contract.ModelRequest) replyFunc {
			if lastResults(req) == nil {
				return callTools(call{"w1", "echo", `{"text":"w"}`})
			}
			return say("wrote")
		},
	}
	deps := testDeps(model, toolBox(t, keyed))
	deps.Env.Store = st
	deps.People.Approver = func(context.Context, conductor.ApprovalRequest) (conductor.Decision, error) {
		return conductor.Decision{Approved: true, Scope: contract.ScopeSession}, nil
	}
	deps.Hooks.BeforeModel("sys", 0, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		req.MaxOutputTokens = 99
		return conductor.Verdict{}, nil
	})
	rewriteCalls(&deps.Hooks)
	deps.Hooks.AfterModel("watch", 0, func(context.Context, contract.Signal) error { return nil })
	cfg := twoDelegates()
	cfg.Tools = []contract.ToolDescriptor{{Name: "echo"}}
	cfg.Delegates[1].Config.Tools = []contract.ToolDescriptor{{Name: "echo"}}
	a := newAgent(t, cfg, deps)
	a.Subscribe(func(contract.RunEvent) {})
	snap, err := a.Submit(ctx, conductor.Text("go"))
	if err != nil {
		t.Fatalf("%v (phase %s)", err, snap.Phase)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.taken) < 2 {
		t.Fatalf("records taken for %d sessions, want the parent's and the child's", len(st.taken))
	}
	for id, taken := range st.taken {
		recs, err := inner.Records(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		// Records linking a child's chain go through Append: matched by
		// step, the taken ones only.
		byStep := map[uint64][]byte{}
		for _, r := range recs {
			b, _ := contract.EncodeRecord(r)
			byStep[r.Step] = b
		}
		for _, b := range taken {
			r, _ := contract.DecodeRecord(b)
			b, _ = contract.EncodeRecord(r)
			if got := byStep[r.Step]; !bytes.Equal(got, b) {
				t.Errorf("%s step %d changed after Record:\ntaken  %s\nstored %s", id, r.Step, b, got)
			}
		}
	}
}
