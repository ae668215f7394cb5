package wire

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

func sayScript() []func(context.Context) ([]turn.Chunk, error) {
	return []func(context.Context) ([]turn.Chunk, error){
		reply(turn.Chunk{Kind: turn.ChunkText, Text: "ok"}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
		reply(turn.Chunk{Kind: turn.ChunkText, Text: "again"}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
	}
}

func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no /proc/self/fd under CI: %v", err)
		}
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(fds)
}

func (e *env) liveThreads() int {
	e.h.mu.Lock()
	defer e.h.mu.Unlock()
	return len(e.h.threads)
}

var idleThreads = flag.Int("threads", 300, "thread ids TestIdleThreadsAreReleased opens (the load trial uses 3000)")

// 3,000 thread ids (-threads; 300 by default), each run once on a file store, leave open files and
// goroutines where they were once the idle time has passed: every agent
// is closed and its session lock released, so the CLI (or another
// process) can go on with the session.
func TestIdleThreadsAreReleased(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvWith(t, envOptions{scripts: sayScript, store: st, handler: HandlerOptions{IdleTimeout: 50 * time.Millisecond}})
	http.DefaultClient.CloseIdleConnections()
	files, goroutines := openFiles(t), runtime.NumGoroutine()
	var heapBefore runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&heapBefore)
	for i := range *idleThreads {
		resp := e.post(context.Background(), runBody(fmt.Sprintf("t%d", i), "hi"), nil)
		frames := readSSE(t, resp.Body)
		resp.Body.Close()
		if got := types(frames); got[len(got)-1] != "RUN_FINISHED" {
			t.Fatalf("thread %d: %v", i, got)
		}
	}
	waitFor(t, func() bool { return e.liveThreads() == 0 })
	http.DefaultClient.CloseIdleConnections()
	for range 200 {
		if openFiles(t) <= files+2 && runtime.NumGoroutine() <= goroutines+4 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if f, g := openFiles(t), runtime.NumGoroutine(); f > files+2 || g > goroutines+4 {
		t.Fatalf("after the idle time: %d open files (was %d), %d goroutines (was %d)", f, files, g, goroutines)
	}
	e.mu.Lock()
	clear(e.agents) // the test's own record of agents, not the handler's
	e.mu.Unlock()
	var heap runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&heap)
	if grown := int64(heap.HeapInuse) - int64(heapBefore.HeapInuse); grown > 16<<20 {
		t.Errorf("heap grew by %d MiB over %d idle threads", grown>>20, *idleThreads)
	}
	// The session is free: an agent of another host takes it and goes on.
	a, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: &script{replies: sayScript()[1:]}}, Env: conductor.Env{Store: st, SessionID: "t7"}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Resume(context.Background(), "t7"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Submit(context.Background(), conductor.Text("more")); err != nil {
		t.Fatalf("the session stayed locked after the thread went idle: %v", err)
	}
	// And the handler opens the thread again from the store.
	resp := e.post(context.Background(), runBody("t8", "more"), nil)
	defer resp.Body.Close()
	if got := types(readSSE(t, resp.Body)); got[len(got)-1] != "RUN_FINISHED" {
		t.Errorf("reopened thread: %v", got)
	}
	if n := len(e.agent("t8").Snapshot().History.Turns()); n != 4 {
		t.Errorf("reopened thread has %d turns, want 4", n)
	}
}

// Past the cap on live threads a new thread gets 503 while every live
// one is busy, and takes the place of one that went idle.
func TestLiveThreadCap(t *testing.T) {
	gate := make(chan struct{})
	e := newEnvWith(t, envOptions{scripts: blockingScript(gate), handler: HandlerOptions{MaxThreads: 2}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, id := range []string{"a", "b"} {
		resp := e.post(ctx, runBody(id, "hi"), nil)
		defer resp.Body.Close()
		waitFor(t, func() bool { return e.agent(id) != nil && e.agent(id).Snapshot().Phase.InFlight() })
	}
	if code, body, _ := e.do("POST", "", runBody("c", "hi"), map[string]string{"Content-Type": "application/json"}); code != http.StatusServiceUnavailable || !strings.Contains(body, "too many live threads") {
		t.Errorf("third thread while two run: %d %q, want 503", code, body)
	}
	close(gate)
	cancel()
	waitFor(t, func() bool { return e.agent("a").Snapshot().Phase.Terminal() && e.users("a") == 0 })
	if code, body, _ := e.do("POST", "", runBody("c", "hi"), map[string]string{"Content-Type": "application/json"}); code != http.StatusOK {
		t.Errorf("third thread after one went idle: %d %q", code, body)
	}
}

// A thread that takes long to open (recovering a crashed run) holds up
// no other thread.
func TestOpeningOneThreadDoesNotBlockAnother(t *testing.T) {
	e := newEnv(t, sayScript)
	gate := make(chan struct{})
	h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
		if id == "slow" {
			select {
			case <-gate:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return e.h.newRunner(ctx, id)
	}, HandlerOptions{})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	post := func(id string) *http.Response {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(runBody(id, "hi")))
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	slow := make(chan *http.Response, 1)
	go func() { slow <- post("slow") }()
	waitFor(t, func() bool { h.mu.Lock(); defer h.mu.Unlock(); return h.threads["slow"] != nil })
	resp := post("fast")
	defer resp.Body.Close()
	if got := types(readSSE(t, resp.Body)); got[len(got)-1] != "RUN_FINISHED" {
		t.Errorf("fast thread while slow one opens: %v", got)
	}
	gate <- struct{}{}
	r := <-slow
	r.Body.Close()
}

// lockingRunner holds its thread's session like an agent holds its lock,
// and takes a while to let it go.
type lockingRunner struct {
	Runner
	held *atomic.Bool
}

func (r lockingRunner) Close() error {
	time.Sleep(5 * time.Millisecond)
	err := r.Runner.Close()
	r.held.Store(false)
	return err
}

// A request for a thread that is being closed for idleness waits for the
// close to release the session, then opens it again: never a failure
// for a lock its own previous agent still held.
func TestThreadReopensWhileItCloses(t *testing.T) {
	e := newEnv(t, func() []func(context.Context) ([]turn.Chunk, error) {
		var out []func(context.Context) ([]turn.Chunk, error)
		for range 30 {
			out = append(out, reply(turn.Chunk{Kind: turn.ChunkText, Text: "ok"}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}))
		}
		return out
	})
	var held atomic.Bool
	h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
		if !held.CompareAndSwap(false, true) {
			return nil, errors.New("session locked")
		}
		r, err := e.h.newRunner(ctx, id+fmt.Sprint(time.Now().UnixNano()))
		if err != nil {
			held.Store(false)
			return nil, err
		}
		return lockingRunner{Runner: r, held: &held}, nil
	}, HandlerOptions{IdleTimeout: time.Millisecond})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	for i := range 30 {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(runBody("x", "hi")))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "RUN_FINISHED") {
			t.Fatalf("run %d: %d %s", i, resp.StatusCode, b)
		}
		time.Sleep(time.Duration(i%8) * time.Millisecond)
	}
}
