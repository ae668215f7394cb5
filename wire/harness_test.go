package wire

import (
	"bufio"
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
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// script is a provider that plays one reply per model call.
type script struct {
	mu      sync.Mutex
	n       int
	replies []func(ctx context.Context) ([]turn.Chunk, error)
	// pace, when set, spaces the chunks out, so that readers can join
	// while a reply streams.
	pace time.Duration
}

func (s *script) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		s.mu.Lock()
		i := s.n
		s.n++
		s.mu.Unlock()
		if i >= len(s.replies) {
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "script exhausted"})
			return
		}
		chunks, err := s.replies[i](ctx)
		for _, c := range chunks {
			if s.pace > 0 {
				time.Sleep(s.pace)
			}
			if !yield(c, nil) {
				return
			}
		}
		if err != nil {
			yield(turn.Chunk{}, err)
		}
	}
}

func reply(chunks ...turn.Chunk) func(context.Context) ([]turn.Chunk, error) {
	return func(context.Context) ([]turn.Chunk, error) { return chunks, nil }
}

// callsTool is a reply that calls the tool name with args under id.
func callsTool(id, name, args string) func(context.Context) ([]turn.Chunk, error) {
	return reply(
		turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: id, Name: name},
		turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: args},
		turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
		turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
}

// says is a reply that says text and ends the turn.
func says(text string) func(context.Context) ([]turn.Chunk, error) {
	return reply(turn.Chunk{Kind: turn.ChunkText, Text: text}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})
}

func gated(gate <-chan struct{}, then func(context.Context) ([]turn.Chunk, error)) func(context.Context) ([]turn.Chunk, error) {
	return func(ctx context.Context) ([]turn.Chunk, error) {
		select {
		case <-gate:
			return then(ctx)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// weatherScript: think, say something, call the tool, then answer.
func weatherScript() []func(context.Context) ([]turn.Chunk, error) {
	return []func(context.Context) ([]turn.Chunk, error){
		reply(
			turn.Chunk{Kind: turn.ChunkThinking, Text: "the user wants weather"},
			turn.Chunk{Kind: turn.ChunkText, Text: "Let me "},
			turn.Chunk{Kind: turn.ChunkText, Text: "check."},
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "call_1", Name: "get_weather"},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"city":`},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `"Paris"}`},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
			turn.Chunk{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 10, OutputTokens: 5}},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}),
		reply(
			turn.Chunk{Kind: turn.ChunkText, Text: "It is 18C "},
			turn.Chunk{Kind: turn.ChunkText, Text: "in Paris."},
			turn.Chunk{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 20, OutputTokens: 4}},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
	}
}

type weatherIn struct {
	City string `json:"city"`
}

// countingRunner counts live subscriptions, to prove a gone client leaves
// none behind.
type countingRunner struct {
	Runner
	subs, unsubs *atomic.Int64
}

// steeringRunner is a countingRunner that takes steering.
type steeringRunner struct{ countingRunner }

func (s steeringRunner) Steer(ctx context.Context, input []contract.Turn) error {
	return s.Runner.(SteerRunner).Steer(ctx, input)
}

func (c countingRunner) Subscribe(fn func(contract.RunEvent)) func() {
	c.subs.Add(1)
	unsub := c.Runner.Subscribe(fn)
	var once sync.Once
	return func() {
		once.Do(func() {
			c.subs.Add(-1)
			c.unsubs.Add(1)
			unsub()
		})
	}
}

// Abort lets clients stop the run (Aborter), which a plain wrap of the
// Runner interface would hide.
func (c countingRunner) Abort(ctx context.Context, mode contract.AbortMode) error {
	return c.Runner.(Aborter).Abort(ctx, mode)
}

// DelegatedEvents shows the delegates' events from the store
// (DelegatedEventer), which a plain wrap would hide too.
func (c countingRunner) DelegatedEvents(ctx context.Context, session string) ([]contract.RunEvent, error) {
	return c.Runner.(DelegatedEventer).DelegatedEvents(ctx, session)
}

type env struct {
	t      *testing.T
	srv    *httptest.Server
	h      *Handler
	subs   atomic.Int64
	unsubs atomic.Int64
	// resumes counts requests that carried a Last-Event-ID.
	resumes atomic.Int64
	// toolGate, when set, holds every tool call until it closes.
	toolGate chan struct{}
	mu       sync.Mutex
	agents   map[string]*conductor.Agent
	scripts  func() []func(context.Context) ([]turn.Chunk, error)
	// cfg, when it names a model, is the agents' config.
	cfg contract.AgentConfig
}

func newEnv(t *testing.T, scripts func() []func(context.Context) ([]turn.Chunk, error)) *env {
	t.Helper()
	return newGatedEnv(t, scripts, nil)
}

func newGatedEnv(t *testing.T, scripts func() []func(context.Context) ([]turn.Chunk, error), toolGate chan struct{}) *env {
	t.Helper()
	return newEnvWith(t, envOptions{scripts: scripts, toolGate: toolGate})
}

// envOptions vary an env: the store (memory when nil) and the handler's
// options.
type envOptions struct {
	scripts  func() []func(context.Context) ([]turn.Chunk, error)
	toolGate chan struct{}
	store    store.Store
	handler  HandlerOptions
	pace     time.Duration
	// steerable makes the runners SteerRunners.
	steerable bool
	// wrap, when set, wraps each thread's runner.
	wrap func(Runner) Runner
}

func newEnvWith(t *testing.T, o envOptions) *env {
	t.Helper()
	return startEnvWith(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: o.scripts, toolGate: o.toolGate}, o)
}

// startEnv serves e's agents.
func startEnv(e *env) *env { return startEnvWith(e, envOptions{}) }

func startEnvWith(e *env, o envOptions) *env {
	t := e.t
	st := o.store
	if st == nil {
		st = store.NewMemory()
	}
	e.h = NewRunnerHandler(func(ctx context.Context, threadID string) (Runner, error) {
		if strings.HasPrefix(threadID, "forbidden") {
			return nil, ErrUnknownThread
		}
		tool := dispatch.MustFunc("get_weather", "Weather for a city.", func(ctx context.Context, in weatherIn) (string, error) {
			if e.toolGate != nil {
				select {
				case <-e.toolGate:
				case <-ctx.Done():
					return "", ctx.Err()
				}
			}
			return "18C, cloudy in " + in.City, nil
		})
		box, err := dispatch.NewToolBox(tool)
		if err != nil {
			return nil, err
		}
		cfg := e.cfg
		if cfg.Model == "" {
			cfg = contract.AgentConfig{Model: "m"}
		}
		a, err := conductor.CreateAgent(cfg, conductor.Deps{
			Model: conductor.Model{Provider: &script{replies: e.scripts(), pace: o.pace}, MaxRetries: turn.NoRetries},
			Tools: conductor.Tools{Box: box},
			Env:   conductor.Env{Store: st, SessionID: threadID, Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}, IDs: &conductor.CountingIDs{}},
		})
		if err != nil {
			return nil, err
		}
		if _, err := st.Head(ctx, threadID); err == nil {
			if _, err := a.Resume(ctx, threadID); err != nil {
				a.Close()
				return nil, err
			}
		}
		e.mu.Lock()
		e.agents[threadID] = a
		e.mu.Unlock()
		var r Runner = countingRunner{Runner: AgentRunner(a), subs: &e.subs, unsubs: &e.unsubs}
		if o.steerable {
			r = steeringRunner{r.(countingRunner)}
		}
		if o.wrap != nil {
			r = o.wrap(r)
		}
		return r, nil
	}, o.handler)
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Last-Event-ID") != "" {
			e.resumes.Add(1)
		}
		e.h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		e.srv.Close()
		if err := e.h.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return e
}

// users counts the requests using a thread.
func (e *env) users(thread string) int {
	e.h.mu.Lock()
	defer e.h.mu.Unlock()
	if t, ok := e.h.threads[thread]; ok {
		return t.users
	}
	return 0
}

func (e *env) agent(thread string) *conductor.Agent {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.agents[thread]
}

func runBody(thread, text string) string {
	b, _ := json.Marshal(map[string]any{
		"threadId": thread, "runId": "client-run", "state": map[string]any{}, "tools": []any{}, "context": []any{},
		"messages": []any{map[string]any{"id": "u-" + text, "role": "user", "content": text}},
	})
	return string(b)
}

func (e *env) post(ctx context.Context, body string, header map[string]string) *http.Response {
	e.t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.srv.URL, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp
}

// postInBackground posts body as JSON to url and delivers the status of
// the response once its body is read to the end; a request that fails
// fails t and delivers 0.
func postInBackground(t *testing.T, url, body string) <-chan int {
	code := make(chan int, 1)
	go func() {
		resp, err := http.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Error(err)
			code <- 0
			return
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		code <- resp.StatusCode
	}()
	return code
}

// sseFrame is one parsed SSE event.
type sseFrame struct {
	ID    string
	Event agui.Event
}

// readSSE parses a whole SSE body (data lines are JSON AG-UI events).
func readSSE(t *testing.T, r io.Reader) []sseFrame {
	t.Helper()
	var out []sseFrame
	var cur sseFrame
	var data strings.Builder
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20) // a lagging stream merges deltas into long lines
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data.Len() > 0 {
				if err := json.Unmarshal([]byte(data.String()), &cur.Event); err != nil {
					t.Fatalf("bad data %q: %v", data.String(), err)
				}
				out = append(out, cur)
			}
			cur, data = sseFrame{}, strings.Builder{}
		case strings.HasPrefix(line, "id: "):
			cur.ID = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			data.WriteString(strings.TrimPrefix(line, "data: "))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read sse: %v", err)
	}
	return out
}

func types(frames []sseFrame) []string {
	var out []string
	for _, f := range frames {
		out = append(out, f.Event.Type)
	}
	return out
}
