package conductor_test

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/vfs"
	"github.com/batonrt/baton/turn"
	"pgregory.net/rapid"
)

// plan is what one agent of a delegation tree does: per turn, the tasks it
// hands to its delegate, each with its own plan.
type plan struct{ turns [][]*plan }

func drawPlan(t *rapid.T, depth int, label string) *plan {
	p := &plan{}
	if depth >= 4 {
		return p
	}
	turns := rapid.IntRange(0, 2).Draw(t, label+".turns")
	for i := range turns {
		var calls []*plan
		n := rapid.IntRange(1, 2).Draw(t, label+".t"+strconv.Itoa(i))
		for j := range n {
			calls = append(calls, drawPlan(t, depth+1, label+"."+strconv.Itoa(i)+"."+strconv.Itoa(j)))
		}
		p.turns = append(p.turns, calls)
	}
	return p
}

// find walks from the root plan along a task such as "r.1.0": turn 1,
// call 0.
func (p *plan) find(task string) *plan {
	parts := strings.Split(task, ".")
	for k := 1; k+1 < len(parts) && p != nil; k += 2 {
		i, _ := strconv.Atoi(parts[k])
		j, _ := strconv.Atoi(parts[k+1])
		if i >= len(p.turns) || j >= len(p.turns[i]) {
			return nil
		}
		p = p.turns[i][j]
	}
	return p
}

// planModel plays a plan: every agent reads its task, finds its part of
// the plan, and on each turn delegates that turn's tasks while it is
// offered its delegate; then it answers with its task.
func planModel(root *plan) turn.Provider {
	return agentsModel{"node": func(_ context.Context, req contract.ModelRequest) replyFunc {
		task := lastUser(req)
		if !strings.HasPrefix(task, "r") {
			task = "r"
		}
		p := root.find(task)
		turnNo := 0
		for _, tn := range req.History.Turns() {
			if tn.Role == contract.RoleTool {
				turnNo++
			}
		}
		offered := false
		for _, d := range req.Tools {
			offered = offered || d.Name == "delegate_node"
		}
		if p == nil || !offered || turnNo >= len(p.turns) {
			return say("answer " + task)
		}
		var calls []call
		for j := range p.turns[turnNo] {
			sub := task + "." + strconv.Itoa(turnNo) + "." + strconv.Itoa(j)
			calls = append(calls, call{"d" + strconv.Itoa(j), "delegate_node", `{"task":"` + sub + `"}`})
		}
		return callTools(calls...)
	}}
}

// selfDelegating is an agent that is its own delegate, declared deeper
// than any cap the property draws.
func selfDelegating(limit int) contract.AgentConfig {
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "node"}
	for range 5 {
		inner := cfg
		cfg.Delegates = []contract.Delegate{{Name: "node", Config: inner}}
	}
	cfg.MaxDelegationDepth = limit
	return cfg
}

// TestDelegationTreesProperty runs random delegation trees under random
// depth caps, some aborted at a random event and some crashed at a random
// write and resumed. Whatever happened: the store verifies, every child
// chain is linked exactly once, no run is deeper than the cap, every tool
// call (delegate calls included) has exactly one result, every run's last
// snapshot is what folding its chain rebuilds, byte for byte, and the
// whole DAG replays.
func TestDelegationTreesProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		root := drawPlan(rt, 0, "r")
		limit := rapid.IntRange(1, 3).Draw(rt, "max_depth")
		abortAt, crashAt := 0, 0 // 0: never
		switch rapid.IntRange(0, 2).Draw(rt, "fault") {
		case 1:
			abortAt = rapid.IntRange(1, 60).Draw(rt, "abort_at_event")
		case 2:
			crashAt = rapid.IntRange(1, 400).Draw(rt, "crash_at_write")
		}
		keep := rapid.SampledFrom([]vfs.Keep{vfs.KeepNone, vfs.KeepAll}).Draw(rt, "keep")
		cfg := selfDelegating(limit)

		fs := vfs.NewMem()
		st, err := store.OpenFS(fs)
		if err != nil {
			rt.Fatal(err)
		}
		last := &lastSnapshots{m: map[string]contract.RunSnapshot{}}
		deps := testDeps(planModel(root), toolBox(t))
		deps.Env.Store = st
		deps.Hooks.OnRunEnd("last", 0, last.put)
		if crashAt > 0 {
			fs.CrashAfter(crashAt)
		}
		a, err := conductor.CreateAgent(cfg, deps)
		if err != nil {
			rt.Fatal(err)
		}
		var once sync.Once
		seen := 0
		var mu sync.Mutex
		a.Subscribe(func(contract.RunEvent) {
			mu.Lock()
			seen++
			hit := seen == abortAt
			mu.Unlock()
			if hit {
				once.Do(func() { go func() { _ = a.Abort(ctxT(t), contract.AbortNow) }() })
			}
		})
		_, err = a.Submit(ctxT(t), conductor.Text("r"))
		_ = a.Close()
		if err != nil && !errors.Is(err, contract.ErrAborted) && !(crashAt > 0 && errors.Is(err, contract.ErrStore)) {
			rt.Fatalf("submit: %v", err)
		}
		if fs.Crashed() || crashAt > 0 {
			fs.Restart(keep)
			if st, err = store.OpenFS(fs); err != nil {
				rt.Fatal(err)
			}
			deps := testDeps(planModel(root), toolBox(t))
			deps.Env.Store = st
			deps.Hooks.OnRunEnd("last", 0, last.put)
			b, err := conductor.CreateAgent(cfg, deps)
			if err != nil {
				rt.Fatal(err)
			}
			_, err = b.Resume(ctxT(t), "session_test")
			_ = b.Close()
			if errors.Is(err, store.ErrNotFound) {
				return
			}
			if err != nil && !errors.Is(err, contract.ErrAborted) {
				rt.Fatalf("resume: %v", err)
			}
		}
		checkTree(rt, st, cfg, limit, last)
		ids, _ := st.Sessions(context.Background())
		treeStats.Lock()
		treeStats.sessions += len(ids)
		treeStats.runs++
		if crashAt > 0 {
			treeStats.crashed++
		}
		if abortAt > 0 {
			treeStats.aborted++
		}
		treeStats.Unlock()
	})
	t.Logf("%d trees, %d sessions in all, %d aborted, %d crashed and resumed", treeStats.runs, treeStats.sessions, treeStats.aborted, treeStats.crashed)
}

var treeStats struct {
	sync.Mutex
	runs, sessions, crashed, aborted int
}

type lastSnapshots struct {
	mu sync.Mutex
	m  map[string]contract.RunSnapshot
}

func (l *lastSnapshots) put(_ context.Context, s contract.RunSnapshot) {
	l.mu.Lock()
	l.m[s.SessionID] = s
	l.mu.Unlock()
}

func checkTree(t failer, st store.Store, cfg contract.AgentConfig, limit int, last *lastSnapshots) {
	ctx := context.Background()
	checkDAG(t, st, "session_test", -1)
	ids, err := st.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if d := strings.Count(id, "/"); d > limit {
			t.Errorf("session %s runs %d levels down, beyond the cap %d", id, d, limit)
		}
		folded, err := store.Resume(ctx, st, cadence.New(cfg), id)
		if err != nil {
			t.Fatal(err)
		}
		last.mu.Lock()
		live, ok := last.m[id]
		last.mu.Unlock()
		if !ok {
			continue // its run ended in the process that crashed, unrecorded
		}
		a, _ := contract.EncodeSnapshot(live)
		b, _ := contract.EncodeSnapshot(folded)
		if !bytes.Equal(a, b) {
			t.Errorf("session %s: folding its chain gives another snapshot\nlive   %s\nfolded %s", id, a, b)
		}
	}
	if err := store.Replay(ctx, st, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
