package conductor_test

import (
	"context"
	"encoding/json"
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

// TestHostsRacingOneAgent has several goroutines submit, steer, follow
// up, approve and abort on one agent at random while a model answers with
// random tool calls. Whatever interleaving happens, every run ends, the
// history stays well formed and the stored session replays exactly.
func TestHostsRacingOneAgent(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { raceOneAgent(t, seed) })
	}
}

func raceOneAgent(t *testing.T, seed uint64) {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, seed))
	intn := func(n int) int {
		mu.Lock()
		defer mu.Unlock()
		return rng.IntN(n)
	}
	model := scripted.Func(func(req contract.ModelRequest) scripted.Reply {
		r := scripted.Reply{ChunkDelay: time.Duration(intn(3)) * time.Millisecond}
		switch intn(3) {
		case 0:
			r.Text = "done"
		default:
			for i := range intn(3) + 1 {
				name := []string{"fast", "slow", "guarded", "ghost"}[intn(4)]
				r.Calls = append(r.Calls, scripted.Call{ID: fmt.Sprintf("c%d_%d", req.Turn, i), Name: name, Arguments: fmt.Sprintf(`{"n":%d}`, intn(1000))})
			}
		}
		return r
	})
	sleepy := func(d time.Duration) func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		return func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
			select {
			case <-time.After(d):
				return contract.ToolOutcome{Content: "ok"}, nil
			case <-ctx.Done():
				return contract.ToolOutcome{}, ctx.Err()
			}
		}
	}
	box := toolBox(t,
		rawTool(t, "fast", sleepy(0)),
		rawTool(t, "slow", sleepy(3*time.Millisecond), dispatch.Sequential()),
		rawTool(t, "guarded", sleepy(time.Millisecond), dispatch.NeedsApproval()))
	st := store.NewMemory()
	deps := testDeps(model, box)
	deps.Env.Store = st
	// The approver races the hosts' own Approve calls; the loser is refused.
	deps.People.Approver = func(ctx context.Context, _ conductor.ApprovalRequest) (conductor.Decision, error) {
		select {
		case <-time.After(time.Duration(intn(3)) * time.Millisecond):
			return conductor.Decision{Approved: intn(2) == 0}, nil
		case <-ctx.Done():
			return conductor.Decision{}, ctx.Err()
		}
	}
	cfg := contract.AgentConfig{Model: "scripted", MaxTurns: 12}
	a := newAgent(t, cfg, deps)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				text := fmt.Sprintf("w%d-%d", w, i)
				switch intn(6) {
				case 0, 1:
					_, err := a.Submit(ctx, conductor.Text(text))
					var re *contract.RunError
					if err != nil && !errors.As(err, &re) && !errors.Is(err, conductor.ErrRejected) {
						t.Errorf("submit: %v", err)
					}
				case 2:
					_ = a.Steer(ctxT(t), conductor.Text(text))
				case 3:
					_ = a.FollowUp(ctxT(t), conductor.Text(text))
				case 4:
					for _, c := range a.Snapshot().PendingApprovals() {
						_ = a.Approve(ctxT(t), c.ID, conductor.Decision{Approved: intn(2) == 0, Scope: contract.ScopeOnce})
					}
				default:
					_ = a.Abort(ctxT(t), []contract.AbortMode{contract.AbortNow, contract.AbortAfterReply, contract.AbortAfterTools}[intn(3)])
				}
				if ctx.Err() != nil {
					t.Error("hosts did not finish in time: a deadlock?")
					return
				}
			}
		}()
	}
	wg.Wait()
	// Nothing may be left hanging: abort whatever still runs, then check.
	_ = a.Abort(ctxT(t), contract.AbortNow)
	deadline := time.Now().Add(10 * time.Second)
	for a.Snapshot().Phase.InFlight() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	snap := a.Snapshot()
	if snap.Phase.InFlight() {
		t.Fatalf("run still in flight after abort: %s", snap.Phase)
	}
	_ = a.Close()
	checkWellFormed(t, snap)
	records, err := st.Records(context.Background(), snap.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Tools = box.Descriptors()
	replayed, err := cadence.New(cfg).Replay(cadence.InitialSnapshot(snap.SessionID), records)
	if err != nil {
		t.Fatalf("replay of %d records: %v", len(records), err)
	}
	runs := map[string]bool{}
	kinds := map[contract.SignalKind]int{}
	for _, r := range records {
		kinds[r.Signal.SignalKind()]++
		if sub, ok := r.Signal.(contract.Submitted); ok {
			runs[sub.RunID] = true
		}
	}
	if len(runs) < 2 || kinds[contract.SigSteered] == 0 || kinds[contract.SigAbortRequested] == 0 {
		t.Errorf("the race went shallow: %d runs, signals %v", len(runs), kinds)
	}
	t.Logf("%d records over %d runs: %v", len(records), len(runs), kinds)
	want, _ := contract.EncodeSnapshot(snap)
	got, _ := contract.EncodeSnapshot(replayed)
	if string(want) != string(got) {
		t.Fatal("replayed snapshot differs from the live one")
	}
}
