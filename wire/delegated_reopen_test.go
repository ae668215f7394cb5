package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

var errProcessGone = errors.New("process gone")

// dyingStore is a process's view of a shared store: once the process
// dies (die), it writes nothing more and the session locks it held are
// free, as a killed server leaves a file or postgres store.
type dyingStore struct {
	store.Store
	dead atomic.Bool
	mu   sync.Mutex
	held []func() error
}

func (s *dyingStore) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	if s.dead.Load() {
		return store.Hash{}, errProcessGone
	}
	return s.Store.Append(ctx, id, recs...)
}

func (s *dyingStore) AppendLinked(ctx context.Context, id string, rec contract.Record, links ...store.Hash) (store.Hash, error) {
	if s.dead.Load() {
		return store.Hash{}, errProcessGone
	}
	return s.Store.AppendLinked(ctx, id, rec, links...)
}

func (s *dyingStore) Lease(ctx context.Context, id string) (*store.Lease, error) {
	lease, err := s.Store.Lease(ctx, id)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	r := func() error {
		err := errProcessGone
		once.Do(func() { err = lease.Release() })
		return err
	}
	s.mu.Lock()
	s.held = append(s.held, r)
	s.mu.Unlock()
	return store.NewLease(releaser(r)), nil
}

// releaser is a release func as the io.Closer a lease is made over.
type releaser func() error

func (r releaser) Close() error { return r() }

func (s *dyingStore) die() {
	s.dead.Store(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, release := range s.held {
		_ = release()
	}
}

// hangs is a model call that never answers: the process dies in it.
func hangs(ctx context.Context) ([]turn.Chunk, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// diesInTheChild are the replies of a server that dies while a
// delegate's child is in its second model call: the parent delegates;
// the child says what it does and calls the weather tool, then hangs.
func diesInTheChild() []func(context.Context) ([]turn.Chunk, error) {
	call := func(id, name, args string) func(context.Context) ([]turn.Chunk, error) {
		return reply(
			turn.Chunk{Kind: turn.ChunkText, Text: "On it: " + name},
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: id, Name: name},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: args},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	}
	return []func(context.Context) ([]turn.Chunk, error){
		call("call_d", "delegate_helper", `{"task":"weather in Paris"}`),
		call("call_1", "get_weather", `{"city":"Paris"}`),
		hangs,
	}
}

// afterTheDeath are the replies of the server that takes the thread on:
// the child's model call again, which answers once release closes, then
// the parent's answer.
func afterTheDeath(release <-chan struct{}) []func(context.Context) ([]turn.Chunk, error) {
	say := func(text string) func(context.Context) ([]turn.Chunk, error) {
		return reply(turn.Chunk{Kind: turn.ChunkText, Text: text}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})
	}
	return []func(context.Context) ([]turn.Chunk, error){
		gated(release, say("18C, cloudy.")),
		say("Paris: 18C, cloudy."),
	}
}

// reopenedChild is what a client shows of the child across the death:
// each of its turns, calls and results once, in order.
var reopenedChild = []string{
	"[call_d] run_started <nil> weather in Paris",
	"[call_d] turn_started <nil> <nil>",
	"[call_d] turn_completed <nil> On it: get_weather",
	"[call_d] tool_call call_1 <nil>",
	"[call_d] tool_started call_1 <nil>",
	"[call_d] tool_result call_1 <nil>",
	"[call_d] turn_started <nil> <nil>",
	"[call_d] turn_completed <nil> 18C, cloudy.",
	"[call_d] run_settled <nil> <nil>",
}

// delegatingServer serves, over st, agents that delegate to "helper",
// their model playing replies; a thread whose session is stored is
// opened again from it, its run in flight picked up.
func delegatingServer(t *testing.T, st store.Store, proto Protocol, replies []func(context.Context) ([]turn.Chunk, error)) *httptest.Server {
	t.Helper()
	return delegatingServerOf(t, st, proto, &script{replies: replies}, func(a *conductor.Agent) Runner { return AgentRunner(a) })
}

// delegatingServerOf is delegatingServer whose threads run what runner
// makes of their agents, on model, with the before_tool hooks given. The
// delegate's system prompt is "helper".
func delegatingServerOf(t *testing.T, st store.Store, proto Protocol, model turn.Provider, runner func(*conductor.Agent) Runner, hooks ...conductor.BeforeToolHook) *httptest.Server {
	t.Helper()
	h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
		tool := dispatch.MustFunc("get_weather", "Weather for a city.", func(ctx context.Context, in weatherIn) (string, error) {
			return "18C, cloudy in " + in.City, nil
		})
		box, err := dispatch.NewToolBox(tool)
		if err != nil {
			return nil, err
		}
		cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{
			{Name: "helper", Config: contract.AgentConfig{Model: "m", System: "helper", Tools: []contract.ToolDescriptor{{Name: "get_weather"}}}},
		}}
		deps := conductor.Deps{
			Model: conductor.Model{Provider: model, MaxRetries: turn.NoRetries},
			Tools: conductor.Tools{Box: box},
			Env:   conductor.Env{Store: st, SessionID: id, Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}, IDs: &conductor.CountingIDs{}},
		}
		for i, hook := range hooks {
			deps.Hooks.BeforeTool(fmt.Sprint("hook", i), i, hook)
		}
		a, err := conductor.CreateAgent(cfg, deps)
		if err != nil {
			return nil, err
		}
		if a, err = reopenStored(ctx, st, a, id); err != nil {
			return nil, err
		}
		return runner(a), nil
	}, HandlerOptions{Protocol: proto})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return srv
}

// sseData is one raw SSE event: its id and its data.
type sseData struct{ id, data string }

// readSSEUntil reads SSE events from r until stop says so or r ends.
func readSSEUntil(t *testing.T, r io.Reader, stop func(sseData) bool) []sseData {
	t.Helper()
	var out []sseData
	var cur sseData
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" && cur.data != "":
			out = append(out, cur)
			if stop(cur) {
				return out
			}
			cur = sseData{}
		case strings.HasPrefix(line, "id: "):
			cur.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			cur.data += strings.TrimPrefix(line, "data: ")
		}
	}
	return out
}

// childToolResult tells the frame, of either protocol, that shows the
// child's tool result.
func childToolResult(f sseData) bool {
	return strings.Contains(f.data, `"kind":"tool_result"`) && strings.Contains(f.data, `"subflow":["call_d"]`)
}

// startAndDie starts thread t1's run on a server over a store its
// process then dies on, while the delegate's child waits on its model,
// and returns what the client had by then and the store.
func startAndDie(t *testing.T, proto Protocol, path, body string) ([]sseData, store.Store) {
	t.Helper()
	shared := store.NewMemory()
	st := &dyingStore{Store: shared}
	srv := delegatingServer(t, st, proto, diesInTheChild())
	resp := postTo(t, srv.URL+path, body)
	had := readSSEUntil(t, resp.Body, childToolResult)
	st.die()
	resp.Body.Close()
	srv.Close()
	if len(had) == 0 || !childToolResult(had[len(had)-1]) {
		t.Fatalf("the first stream never showed the child's tool result: %v", had)
	}
	return had, shared
}

// childLines are the child's events a client shows, of either protocol.
func childLines(t *testing.T, raw []sseData) []string {
	t.Helper()
	var out []string
	for _, f := range raw {
		if f.data == "[DONE]" {
			continue
		}
		var c struct {
			Type  string         `json:"type"`
			Name  string         `json:"name"`
			Value map[string]any `json:"value"`
			Data  map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(f.data), &c); err != nil {
			t.Fatalf("bad data %q: %v", f.data, err)
		}
		v := c.Value
		if c.Type == aisdk.DataSubflowEvent {
			v = c.Data
		} else if c.Name != agui.CustomSubflow {
			continue
		}
		out = append(out, fmt.Sprintf("%v %v %v %v", v["subflow"], v["kind"], v["toolCallId"], v["text"]))
	}
	return out
}

// reconnectFrom reconnects to thread t1 with Last-Event-ID last and
// returns the whole resumed stream; with release, the request is in
// before the child's model call it holds answers.
func reconnectFrom(t *testing.T, url, last string, release chan struct{}) []sseData {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(runBody("t1", "weather in Paris?")))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Last-Event-ID", last)
	return streamOf(t, req, release)
}

// streamOf sends req and returns the whole stream it answers with; with
// release, closed once the response has begun.
func streamOf(t *testing.T, req *http.Request, release chan struct{}) []sseData {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s %s: %d %s", req.Method, req.URL, resp.StatusCode, b)
	}
	if release != nil {
		close(release)
	}
	return readSSEUntil(t, resp.Body, func(sseData) bool { return false })
}

// TestReconnectAfterTheServerDiesInADelegatedRun: a server dies while a
// delegate's child waits on its model; the client reconnects, with the
// SSE id it last got, to the server that takes the thread on and picks
// the run up, before the child's model answers. It is shown the rest of
// the child, then, reconnecting from every id it was given before or
// after, every event of the child once, in order.
// Before, the events of the child from before the death, in the child's
// session only, were shown to no client that reconnected after it, and
// the child's frames were numbered by what the dead process had
// streamed of them, deltas included, so an id from before the death
// took a reconnect past frames it lacked.
func TestReconnectAfterTheServerDiesInADelegatedRun(t *testing.T) {
	had, st := startAndDie(t, ProtocolAGUI, "", runBody("t1", "weather in Paris?"))
	release := make(chan struct{})
	again := delegatingServer(t, st, ProtocolAGUI, afterTheDeath(release))
	resumed := reconnectFrom(t, again.URL, had[len(had)-1].id, release)
	if diff := cmp.Diff(reopenedChild, childLines(t, append(had, resumed...))); diff != "" {
		t.Fatalf("reconnected while the child runs again: child's events mismatch (-want +got):\n%s", diff)
	}
	checkEveryCut(t, again.URL, append(had, resumed...), func(got []string) string { return cmp.Diff(reopenedChild, got) })
}

// checkEveryCut reconnects to url as a client cut after each frame of
// all would, with the newest id it had, and fails t where what it then
// has of the children, had and resumed, has a diff (-want +got).
func checkEveryCut(t *testing.T, url string, all []sseData, diff func(got []string) string) {
	t.Helper()
	last := ""
	for i, f := range all {
		if f.id != "" {
			last = f.id
		}
		if last == "" {
			continue
		}
		got := childLines(t, append(all[:i+1:i+1], reconnectFrom(t, url, last, nil)...))
		if d := diff(got); d != "" {
			t.Errorf("cut after frame %d (%s), reconnected from %s: the children's events mismatch (-want +got):\n%s", i, f.data, last, d)
		}
	}
}

// TestAISDKResumeAfterTheServerDiesInADelegatedRun: as above, for the AI
// SDK's resume request, which streams the run in flight from its start:
// it shows every event of the child once, in order, those from before
// the death included.
func TestAISDKResumeAfterTheServerDiesInADelegatedRun(t *testing.T) {
	_, st := startAndDie(t, ProtocolAISDK, "/api/chat", chatBody("t1", "weather in Paris?"))
	release := make(chan struct{})
	again := delegatingServer(t, st, ProtocolAISDK, afterTheDeath(release))
	req, _ := http.NewRequest(http.MethodGet, again.URL+"/api/chat/t1/stream", nil)
	got := childLines(t, streamOf(t, req, release))
	if diff := cmp.Diff(reopenedChild, got); diff != "" {
		t.Errorf("child's events mismatch (-want +got):\n%s", diff)
	}
}

// lateReader is a thread's runner that lets the child's held model call
// answer, and waits for the child's end to be in the thread's log,
// before it reads what the delegates did from the store.
type lateReader struct {
	Runner
	de      DelegatedEventer
	release chan struct{}
	logged  func() bool
}

func (r lateReader) DelegatedEvents(ctx context.Context, session string) ([]contract.RunEvent, error) {
	select {
	case <-r.release:
	default:
		close(r.release)
		for !r.logged() {
			time.Sleep(time.Millisecond)
		}
	}
	return r.de.DelegatedEvents(ctx, session)
}

// TestADelegatedEventStoredWhileAReconnectStartsIsShownOnce: the child
// ends between the moment a reconnecting stream took the thread's log
// and the moment it read the child's events from the store: its end is
// in both, and is shown once.
func TestADelegatedEventStoredWhileAReconnectStartsIsShownOnce(t *testing.T) {
	had, st := startAndDie(t, ProtocolAGUI, "", runBody("t1", "weather in Paris?"))
	release := make(chan struct{})
	var h *Handler
	again := delegatingServerOf(t, st, ProtocolAGUI, &script{replies: afterTheDeath(release)}, func(a *conductor.Agent) Runner {
		return lateReader{Runner: AgentRunner(a), de: a, release: release, logged: func() bool {
			return h.logHas("t1", func(ev contract.RunEvent) bool { return len(ev.Subflow) > 0 && ev.Kind == contract.EvRunSettled })
		}}
	})
	h = again.Config.Handler.(*Handler)
	resumed := reconnectFrom(t, again.URL, had[len(had)-1].id, nil)
	if diff := cmp.Diff(reopenedChild, childLines(t, append(had, resumed...))); diff != "" {
		t.Errorf("child's events mismatch (-want +got):\n%s", diff)
	}
}
