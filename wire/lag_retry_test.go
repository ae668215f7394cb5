package wire

import (
	"context"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// brokenThenWhole streams "Good", waits until blocked closes, streams
// " morn" and breaks; the retry streams "Hello", closes release and
// stops.
type brokenThenWhole struct {
	mu               sync.Mutex
	n                int
	blocked, release chan struct{}
}

func (p *brokenThenWhole) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		p.mu.Lock()
		i := p.n
		p.n++
		p.mu.Unlock()
		switch i {
		case 0:
			if !yield(turn.Chunk{Kind: turn.ChunkText, Text: "Good"}, nil) {
				return
			}
			select {
			case <-p.blocked:
			case <-ctx.Done():
				return
			}
			if !yield(turn.Chunk{Kind: turn.ChunkText, Text: " morn"}, nil) {
				return
			}
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailStream, Message: "connection reset"})
		case 1:
			if !yield(turn.Chunk{Kind: turn.ChunkText, Text: "Hello"}, nil) {
				return
			}
			close(p.release)
			yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
		default:
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "script exhausted"})
		}
	}
}

// stallingRunner holds the thread's subscription on the first text delta
// it delivers until release closes: for that while the thread's
// subscriber lags, as one does on a busy machine or while it repairs a
// lag from a slow store.
type stallingRunner struct {
	Runner
	blocked, release chan struct{}
	once             *sync.Once
}

func (s stallingRunner) Subscribe(fn func(contract.RunEvent)) func() {
	return s.Runner.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvTextDelta {
			s.once.Do(func() {
				close(s.blocked)
				<-s.release
			})
		}
		fn(ev)
	})
}

// newLagEnv serves threads whose agents retry a broken model call once
// and whose thread subscription lags while the retry is published.
func newLagEnv(t *testing.T) (*httptest.Server, map[string]*conductor.Agent, *sync.Mutex) {
	t.Helper()
	var mu sync.Mutex
	agents := map[string]*conductor.Agent{}
	h := NewRunnerHandler(func(ctx context.Context, threadID string) (Runner, error) {
		p := &brokenThenWhole{blocked: make(chan struct{}), release: make(chan struct{})}
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{
			Model: conductor.Model{Provider: p, MaxRetries: 1, Backoff: time.Millisecond, MaxBackoff: time.Millisecond, NoFallback: true},
			Env: conductor.Env{Store: store.NewMemory(), SessionID: threadID, EventBuffer: 1,
				Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}, IDs: &conductor.CountingIDs{}},
		})
		if err != nil {
			return nil, err
		}
		mu.Lock()
		agents[threadID] = a
		mu.Unlock()
		return stallingRunner{Runner: AgentRunner(a), blocked: p.blocked, release: p.release, once: &sync.Once{}}, nil
	}, HandlerOptions{})
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		if err := h.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return srv, agents, &mu
}

func postTo(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// A model call that breaks mid-stream and is retried while the thread's
// subscription lags: the client must still be told of the retry, so that
// the retried reply is not glued onto the broken attempt's text. What the
// client holds of the call after the last retry notice must be the
// committed reply, once.
func TestRetryWhileLaggingIsNotGluedOrDoubled(t *testing.T) {
	t.Run("ag-ui", func(t *testing.T) {
		srv, agents, mu := newLagEnv(t)
		resp := postTo(t, srv.URL, runBody("lag-agui", "hi"))
		defer resp.Body.Close()
		frames := readSSE(t, resp.Body)
		var text retriedText
		for _, f := range frames {
			switch f.Event.Type {
			case agui.TextMessageStart:
				text.start(f.Event.MessageID)
			case agui.TextMessageContent:
				text.add(f.Event.MessageID, f.Event.Delta)
			case agui.Custom:
				if f.Event.Name == agui.CustomModelRetry {
					text.retry()
				}
			}
		}
		mu.Lock()
		committed := agents["lag-agui"].Snapshot().FinalText()
		mu.Unlock()
		text.check(t, committed, agui.CustomModelRetry)
	})
	t.Run("ai-sdk", func(t *testing.T) {
		srv, agents, mu := newLagEnv(t)
		resp := postTo(t, srv.URL+"/api/chat?protocol=ai-sdk", chatBody("lag-ui", "hi"))
		defer resp.Body.Close()
		_, chunks := readUI(t, resp.Body)
		var text retriedText
		for _, c := range chunks {
			switch c.Type {
			case aisdk.TextStart:
				text.start(c.ID)
			case aisdk.TextDelta:
				text.add(c.ID, c.Delta)
			case aisdk.DataModelRetry:
				text.retry()
			}
		}
		mu.Lock()
		committed := agents["lag-ui"].Snapshot().FinalText()
		mu.Unlock()
		text.check(t, committed, aisdk.DataModelRetry)
	})
}

// retriedText is what a client assembles of a model call's text parts,
// in order, and where the last retry notice came among them.
type retriedText struct {
	order      []string
	texts      map[string]string
	afterRetry int
	retried    bool
}

func (r *retriedText) start(id string) { r.order = append(r.order, id) }

func (r *retriedText) add(id, delta string) {
	if r.texts == nil {
		r.texts = map[string]string{}
	}
	r.texts[id] += delta
}

func (r *retriedText) retry() { r.retried, r.afterRetry = true, len(r.order) }

// check fails t unless a retry notice (named notice) came, and the text
// of the parts after it is the committed reply.
func (r *retriedText) check(t *testing.T, committed, notice string) {
	t.Helper()
	var all []string
	var kept strings.Builder
	for i, id := range r.order {
		all = append(all, r.texts[id])
		if i >= r.afterRetry {
			kept.WriteString(r.texts[id])
		}
	}
	if !r.retried {
		t.Errorf("no %s notice reached the client; its text parts: %q", notice, all)
	}
	if diff := cmp.Diff(committed, kept.String()); diff != "" {
		t.Errorf("client's text of the retried call vs committed reply %q (-committed +client), parts %q:\n%s", committed, all, diff)
	}
}
