package conductor_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

const killTreeChildEnv = "BATON_CONDUCTOR_KILL_TREE_CHILD_DIR"

// leafTools are the grandchild's tools: fetch is idempotent, charge is
// not; each calls ran with its call id, then answers with answer.
func leafTools(ran func(string), answer func(context.Context, string) string) (*dispatch.ToolBox, error) {
	var tools []dispatch.Tool
	for _, d := range []contract.ToolDescriptor{{Name: "fetch", Idempotent: true}, {Name: "charge"}} {
		d.Description = d.Name
		d.InputSchema = json.RawMessage(`{"type":"object"}`)
		tool, err := dispatch.NewTool(d, func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
			ran(dispatch.CallID(ctx))
			return contract.ToolOutcome{Content: answer(ctx, d.Name)}, nil
		})
		if err != nil {
			return nil, err
		}
		tools = append(tools, tool)
	}
	return dispatch.NewToolBox(tools...)
}

// threeLevels is a parent that hands a task to mid, which hands it on to
// leaf, which calls fetch and charge at once and answers with their
// results.
func threeLevels() (contract.AgentConfig, agentsModel) {
	leaf := contract.AgentConfig{Model: "gpt-4o", System: "leaf", Tools: []contract.ToolDescriptor{{Name: "fetch"}, {Name: "charge"}}}
	mid := contract.AgentConfig{Model: "gpt-4o", System: "mid", Delegates: []contract.Delegate{{Name: "leaf", Config: leaf}}}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{{Name: "mid", Config: mid}}}
	model := agentsModel{
		"parent": delegateOnce(call{"p1", "delegate_mid", `{"task":"pay"}`}),
		"mid":    delegateOnce(call{"m1", "delegate_leaf", `{"task":"pay"}`}),
		"leaf":   delegateOnce(call{"f1", "fetch", `{}`}, call{"c1", "charge", `{}`}),
	}
	return cfg, model
}

// killTreeChild is the child process of
// TestKillNineMidGrandchildToolResumesTheTree: it runs the three levels
// on a file store, prints "running <call>" as each of the grandchild's
// tools starts, and has those tools wait to be killed.
func killTreeChild(dir string) int {
	st, err := store.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cfg, model := threeLevels()
	var mu sync.Mutex
	running := func(id string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Println("running", id)
	}
	forever := func(ctx context.Context, _ string) string {
		<-ctx.Done()
		return "cancelled"
	}
	box, err := leafTools(running, forever)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	deps := testDeps(model, box)
	deps.Env.Store = st
	a, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	_, err = a.Submit(context.Background(), conductor.Text("go"))
	fmt.Fprintln(os.Stderr, "the child should have been killed:", err)
	return 4
}

// TestKillNineMidGrandchildToolResumesTheTree: a process is killed with
// SIGKILL while a grandchild's two tools run. A new process resumes the
// parent's session: the whole tree continues, the idempotent call runs
// again, the other is answered as indeterminate without running, the
// parent's final answer arrives once, and the DAG verifies and replays.
func TestKillNineMidGrandchildToolResumesTheTree(t *testing.T) {
	// Under CI every test runs, -short or not.
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("spawns a process; run without -short")
	}
	ctx := ctxT(t)
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killTreeChildEnv+"="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started := map[string]bool{}
	sc := bufio.NewScanner(out)
	for len(started) < 2 && sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "running "); ok {
			started[id] = true
		}
	}
	// Already gone if it failed before both tools started: told below.
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if len(started) < 2 {
		t.Fatalf("the grandchild's tools did not both start (%v): %s", started, stderr.String())
	}

	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, model := threeLevels()
	var mu sync.Mutex
	var reran []string
	ran := func(id string) {
		mu.Lock()
		defer mu.Unlock()
		reran = append(reran, id)
	}
	box, err := leafTools(ran, func(_ context.Context, name string) string { return name + " done" })
	if err != nil {
		t.Fatal(err)
	}
	deps := testDeps(model, box)
	deps.Env.Store = st
	a := newAgent(t, cfg, deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	snap, err := a.Resume(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if snap.Phase != contract.PhaseSettled {
		t.Fatalf("resumed to %s (%v)", snap.Phase, snap.Err)
	}
	if diff := cmp.Diff([]string{"f1"}, reran); diff != "" {
		t.Errorf("calls run again mismatch (-want +got):\n%s", diff)
	}
	indeterminate := "error: indeterminate: interrupted while running; the call may or may not have taken effect"
	leafAnswer := "fetch done | " + indeterminate
	if got := results(snap); len(got) != 1 || got[0].Content != leafAnswer {
		t.Errorf("parent results %+v, want the one answer %q passed up", got, leafAnswer)
	}
	settled := 0
	for _, ev := range rec.events {
		if ev.Kind == contract.EvRunSettled && len(ev.Subflow) == 0 {
			settled++
		}
	}
	if settled != 1 {
		t.Errorf("the parent's run settled %d times on the stream, want once", settled)
	}
	checkDAG(t, st, "session_test", 2)
	if err := store.Replay(ctx, st, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
