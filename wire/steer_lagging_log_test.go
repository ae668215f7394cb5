package wire

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// gatedSecond answers every model call with "ok", except the first call
// of a run started by "second", which waits for gate: the run stays in
// flight until the test lets it go on. asked closes when that call
// comes.
type gatedSecond struct{ asked, gate chan struct{} }

func (m gatedSecond) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		var said []string
		for _, t := range req.History.Turns() {
			if t.Role == contract.RoleUser && t.Text() != "" {
				said = append(said, t.Text())
			}
		}
		if said[len(said)-1] == "second" {
			close(m.asked)
			select {
			case <-m.gate:
			case <-ctx.Done():
				yield(turn.Chunk{}, ctx.Err())
				return
			}
		}
		if yield(turn.Chunk{Kind: turn.ChunkText, Text: "ok"}, nil) {
			yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
		}
	}
}

// laggingStartRunner holds the thread's subscription on the second run's
// run_started until release closes, as a busy machine may: the run is in
// flight while the thread's log still ends with the run before it.
// steered closes once a steer was taken.
type laggingStartRunner struct {
	SteerRunner
	starts  *atomic.Int32
	release chan struct{}
	steerSignal
}

func (r laggingStartRunner) Subscribe(fn func(contract.RunEvent)) func() {
	return r.SteerRunner.Subscribe(holding(fn, r.release, func(ev contract.RunEvent) bool {
		return ev.Kind == contract.EvRunStarted && len(ev.Subflow) == 0 && r.starts.Add(1) == 2
	}))
}

func (r laggingStartRunner) Steer(ctx context.Context, input []contract.Turn) error {
	return r.took(r.SteerRunner.Steer(ctx, input))
}

// A message that steers a run whose start the thread's log does not have
// yet gets a stream that ends with that run. Its stream took the run
// before, ended in the log, for its own, and followed the steered run
// for ever waiting for that one's end.
func TestSteerOfARunTheLogLacksEndsWithIt(t *testing.T) {
	asked, gate := make(chan struct{}), make(chan struct{})
	release, steered := make(chan struct{}), make(chan struct{})
	h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{
			Model: conductor.Model{Provider: gatedSecond{asked: asked, gate: gate}, MaxRetries: turn.NoRetries},
			Env:   conductor.Env{Store: store.NewMemory(), SessionID: id, Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}, IDs: &conductor.CountingIDs{}},
		})
		if err != nil {
			return nil, err
		}
		return laggingStartRunner{SteerRunner: AgentRunner(a).(SteerRunner), starts: &atomic.Int32{}, release: release, steerSignal: steerSignal{steered, &sync.Once{}}}, nil
	}, HandlerOptions{})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	var let sync.Once
	letGo := func() { let.Do(func() { close(release); close(gate) }) }
	// Before the handler closes, should the test stop early: its
	// subscription and its run wait for these.
	t.Cleanup(letGo)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	post := func(id, text string) string {
		body, _ := json.Marshal(map[string]any{
			"threadId": "t1", "runId": "r-" + id, "state": map[string]any{}, "tools": []any{}, "context": []any{},
			"messages": []any{map[string]any{"id": id, "role": "user", "content": text}},
		})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("post %q: %v", text, err)
			return ""
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Errorf("stream of %q: %v", text, err)
		}
		return string(b)
	}
	if got := types(readSSE(t, strings.NewReader(post("u1", "first")))); len(got) == 0 || got[len(got)-1] != agui.RunFinished {
		t.Fatalf("first run's stream: %v", got)
	}
	raw := make([]string, 2)
	var wg sync.WaitGroup
	goPost := func(i int, id, text string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw[i] = post(id, text)
		}()
	}
	waitOn := func(c <-chan struct{}, what string) {
		select {
		case <-c:
		case <-ctx.Done():
			t.Fatal(what)
		}
	}
	goPost(0, "u2", "second")
	waitOn(asked, "the second run never called its model")
	goPost(1, "u3", "steer")
	waitOn(steered, "the steer was never taken")
	letGo()
	wg.Wait()
	for i, name := range []string{"second", "steer"} {
		got := types(readSSE(t, strings.NewReader(raw[i])))
		if len(got) == 0 || got[len(got)-1] != agui.RunFinished {
			t.Errorf("stream of %q does not end with the run: %v", name, got)
		}
	}
}
