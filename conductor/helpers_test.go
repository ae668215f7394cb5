package conductor_test

import (
	"context"
	"encoding/json"
	"iter"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// replyFunc answers one model call.
type replyFunc func(ctx context.Context, req contract.ModelRequest) ([]turn.Chunk, error)

// fakeModel plays replies in order and records the requests.
type fakeModel struct {
	mu       sync.Mutex
	replies  []replyFunc
	requests []contract.ModelRequest
}

func (m *fakeModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		m.mu.Lock()
		m.requests = append(m.requests, req)
		n := len(m.requests) - 1
		var fn replyFunc
		if n < len(m.replies) {
			fn = m.replies[n]
		}
		m.mu.Unlock()
		if fn == nil {
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "script exhausted"})
			return
		}
		chunks, err := fn(ctx, req)
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
		if err != nil {
			yield(turn.Chunk{}, err)
		}
	}
}

func (m *fakeModel) Requests() []contract.ModelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]contract.ModelRequest(nil), m.requests...)
}

func say(text string) replyFunc {
	return func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		return []turn.Chunk{
			{Kind: turn.ChunkText, Text: text},
			{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 10, OutputTokens: 3}},
			{Kind: turn.ChunkStop, Stop: contract.StopEndTurn},
		}, nil
	}
}

type call struct{ id, name, args string }

func callTools(calls ...call) replyFunc {
	return func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		var out []turn.Chunk
		for i, c := range calls {
			out = append(out,
				turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: c.id, Name: c.name},
				turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: c.args},
				turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i})
		}
		out = append(out, turn.Chunk{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 20, OutputTokens: 5}}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
		return out, nil
	}
}

// blockUntil holds the model call until release is closed or ctx ends.
func blockUntil(release <-chan struct{}, then replyFunc) replyFunc {
	return func(ctx context.Context, req contract.ModelRequest) ([]turn.Chunk, error) {
		select {
		case <-release:
			return then(ctx, req)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

type echoIn struct {
	Text string `json:"text"`
}

func echoTool(t testing.TB, opts ...dispatch.Option) dispatch.Tool {
	t.Helper()
	tool, err := dispatch.Func("echo", "Echoes its text.", func(ctx context.Context, in echoIn) (string, error) {
		return in.Text, nil
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func rawTool(t testing.TB, name string, fn func(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error), opts ...dispatch.Option) dispatch.Tool {
	t.Helper()
	d := contract.ToolDescriptor{Name: name, Description: name, InputSchema: json.RawMessage(`{"type":"object"}`)}
	for _, o := range opts {
		o(&d)
	}
	tool, err := dispatch.NewTool(d, fn)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func toolBox(t testing.TB, tools ...dispatch.Tool) *dispatch.ToolBox {
	t.Helper()
	b, err := dispatch.NewToolBox(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testDeps are deterministic deps: a fixed clock and counting ids.
func testDeps(p turn.Provider, box *dispatch.ToolBox) conductor.Deps {
	return conductor.Deps{
		Model: conductor.Model{Provider: p, MaxRetries: turn.NoRetries},
		Tools: conductor.Tools{Box: box},
		Env:   conductor.Env{SessionID: "session_test", Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}, IDs: &conductor.CountingIDs{}},
	}
}

func newAgent(t testing.TB, cfg contract.AgentConfig, deps conductor.Deps) *conductor.Agent {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = "gpt-4o"
	}
	a, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a
}

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []contract.RunEvent
}

func (r *recorder) add(ev contract.RunEvent) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
}

func (r *recorder) kinds(committedOnly bool) []contract.EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []contract.EventKind
	for _, e := range r.events {
		if committedOnly && e.Delta != 0 {
			continue
		}
		out = append(out, e.Kind)
	}
	return out
}

// results returns the tool results in history order.
func results(s contract.RunSnapshot) []contract.ToolResult {
	var out []contract.ToolResult
	for _, turn := range s.History.Turns() {
		out = append(out, turn.Results()...)
	}
	return out
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
