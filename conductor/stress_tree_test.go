package conductor_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// TestHostsRacingOneDelegationTree has several goroutines submit, steer,
// abort, approve and answer on one agent at random while its model and
// its delegates' call tools that need approval, ask people and delegate
// further, at random. The hosts learn what the children wait for from
// SubflowAsks and answer it by path or by call id. Whatever interleaving
// happens, every host call returns, every run ends, and the stored tree
// replays exactly.
func TestHostsRacingOneDelegationTree(t *testing.T) {
	const seeds = 8
	sessions := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { sessions += raceOneTree(t, seed) })
	}
	if sessions <= seeds {
		t.Errorf("the race went shallow: %d sessions over %d seeds, no delegate ran", sessions, seeds)
	}
}

// raceOneTree races the hosts on one tree and returns how many sessions
// the store holds after.
func raceOneTree(t *testing.T, seed uint64) int {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, seed))
	intn := func(n int) int {
		mu.Lock()
		defer mu.Unlock()
		return rng.IntN(n)
	}
	model := scripted.Func(func(req contract.ModelRequest) scripted.Reply {
		r := scripted.Reply{ChunkDelay: time.Duration(intn(2)) * time.Millisecond}
		if intn(3) == 0 {
			r.Text = "done"
			return r
		}
		names := []string{"fast", "guarded", "ask_human", "delegate_helper"}
		for i := range intn(3) + 1 {
			name := names[intn(len(names))]
			args := fmt.Sprintf(`{"n":%d}`, intn(1000))
			switch name {
			case "ask_human":
				args = `{"question":"which?"}`
			case "delegate_helper":
				args = fmt.Sprintf(`{"task":"t%d"}`, intn(1000))
			}
			// Every run numbers its calls alike, so ids repeat across the tree.
			r.Calls = append(r.Calls, scripted.Call{ID: fmt.Sprintf("c%d_%d", req.Turn, i), Name: name, Arguments: args})
		}
		return r
	})
	box := toolBox(t,
		rawTool(t, "fast", okTool),
		rawTool(t, "guarded", okTool, dispatch.NeedsApproval()),
		dispatch.AskHuman(""))
	tools := []contract.ToolDescriptor{{Name: "fast"}, {Name: "guarded"}, {Name: "ask_human"}}
	helper := contract.AgentConfig{Model: "scripted", System: "helper", MaxTurns: 4, Tools: tools}
	helper.Delegates = []contract.Delegate{{Name: "helper", Description: "Helps.", Config: helper}}
	cfg := contract.AgentConfig{Model: "scripted", System: "root", MaxTurns: 8, Tools: tools, MaxDelegationDepth: 2,
		Delegates: []contract.Delegate{{Name: "helper", Description: "Helps.", Config: helper}}}
	st := store.NewMemory()
	deps := testDeps(model, box)
	deps.Env.Store = st
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, cfg, deps)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				text := fmt.Sprintf("w%d-%d", w, i)
				switch intn(7) {
				case 0:
					sctx, scancel := context.WithTimeout(ctx, time.Duration(intn(200))*time.Millisecond)
					_, err := a.Submit(sctx, conductor.Text(text))
					scancel()
					var re *contract.RunError
					if err != nil && !errors.As(err, &re) && !errors.Is(err, conductor.ErrRejected) && !errors.Is(err, context.DeadlineExceeded) {
						t.Errorf("submit: %v", err)
					}
				case 1:
					_ = a.Steer(ctx, conductor.Text(text))
				case 2:
					_ = a.Abort(ctx, []contract.AbortMode{contract.AbortNow, contract.AbortAfterReply, contract.AbortAfterTools}[intn(3)])
				case 3:
					_, _ = a.WaitsOnlyForPeople(ctx)
				default:
					asks, err := a.SubflowAsks(ctx)
					if err != nil {
						t.Errorf("subflow asks: %v", err)
					}
					for _, ev := range asks {
						byPath := intn(2) == 0
						switch {
						case ev.Kind == contract.EvQuestionAsked && byPath:
							_ = a.AnswerSubflow(ctx, ev.Subflow, ev.Call.ID, text)
						case ev.Kind == contract.EvQuestionAsked:
							_ = a.Answer(ctx, ev.Call.ID, text)
						case byPath:
							_ = a.ApproveSubflow(ctx, ev.Subflow, ev.Call.ID, conductor.Decision{Approved: intn(2) == 0})
						default:
							_ = a.Approve(ctx, ev.Call.ID, conductor.Decision{Approved: intn(2) == 0})
						}
					}
					for _, c := range a.Snapshot().Pending {
						switch c.State {
						case contract.CallAwaitingApproval:
							_ = a.ApproveSubflow(ctx, nil, c.Call.ID, conductor.Decision{Approved: true})
						case contract.CallAwaitingHuman:
							_ = a.AnswerSubflow(ctx, nil, c.Call.ID, text)
						}
					}
				}
				if ctx.Err() != nil {
					t.Error("hosts did not finish in time: a deadlock?")
					return
				}
			}
		}()
	}
	wg.Wait()
	_ = a.Abort(ctxT(t), contract.AbortNow)
	deadline := time.Now().Add(10 * time.Second)
	for a.Snapshot().Phase.InFlight() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	snap := a.Snapshot()
	if snap.Phase.InFlight() {
		t.Fatalf("run still in flight after abort: %s", snap.Phase)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, snap)
	rules := cadence.New(a.Config())
	if err := store.Replay(context.Background(), st, rules, snap.SessionID); err != nil {
		t.Fatalf("replay of the tree: %v", err)
	}
	sessions, err := st.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(sessions)
}
