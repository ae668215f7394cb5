package wire

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// countingModel answers a user message with "reply to" its text, except
// "clean up", for which it calls delete_file, a tool that waits for a
// person's approval, and a message that starts with "work", for which it
// calls touch, which does not; it sums a history up in one word. calls
// counts its model calls, across restarts; the first failing of them
// fail.
type countingModel struct{ calls, failing *atomic.Int64 }

func (m countingModel) Stream(_ context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	m.calls.Add(1)
	if m.failing.Add(-1) >= 0 {
		return func(yield func(turn.Chunk, error) bool) {
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "down"})
		}
	}
	last, _ := req.History.Last()
	chunks := []turn.Chunk{{Kind: turn.ChunkText, Text: "reply to " + last.Text()}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	if req.System == turn.SummarySystem {
		chunks = []turn.Chunk{{Kind: turn.ChunkText, Text: "summary"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	}
	if last.Role == contract.RoleUser && strings.HasPrefix(last.Text(), "work") {
		chunks = []turn.Chunk{
			{Kind: turn.ChunkToolCallStart, CallID: "w1", Name: "touch"},
			{Kind: turn.ChunkToolCallArgs, Text: `{}`},
			{Kind: turn.ChunkToolCallEnd},
			{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
		}
	}
	if last.Role == contract.RoleUser && last.Text() == "clean up" {
		chunks = []turn.Chunk{
			{Kind: turn.ChunkToolCallStart, CallID: "d1", Name: "delete_file"},
			{Kind: turn.ChunkToolCallArgs, Text: `{"path":"build"}`},
			{Kind: turn.ChunkToolCallEnd},
			{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
		}
	}
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// repostServer serves proto over a file store in dir, which outlives the
// server: a second one over the same dir is the first one restarted.
type repostServer struct {
	t     *testing.T
	proto Protocol
	dir   string
	calls atomic.Int64
	// failing counts the model calls still to fail.
	failing atomic.Int64
	st      store.Store
	h       *Handler
	srv     *httptest.Server
	// retrieving, when set, gets a value as each submit asks for its
	// context, which it then waits for until gate closes.
	retrieving chan<- struct{}
	gate       <-chan struct{}
	// compaction is the agents' compaction policy.
	compaction contract.CompactionPolicy
}

func newRepostServer(t *testing.T, proto Protocol) *repostServer {
	return newGatedRepostServer(t, proto, nil, nil)
}

// newGatedRepostServer is newRepostServer whose submits wait for gate
// while they ask for context, each saying so on retrieving.
func newGatedRepostServer(t *testing.T, proto Protocol, retrieving chan<- struct{}, gate <-chan struct{}) *repostServer {
	s := &repostServer{t: t, proto: proto, dir: t.TempDir(), retrieving: retrieving, gate: gate}
	s.start()
	t.Cleanup(s.stop)
	return s
}

// newCompactingRepostServer is newRepostServer whose agents compact
// their history by policy.
func newCompactingRepostServer(t *testing.T, proto Protocol, policy contract.CompactionPolicy) *repostServer {
	s := &repostServer{t: t, proto: proto, dir: t.TempDir(), compaction: policy}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *repostServer) start() {
	st, err := store.Open(s.dir)
	if err != nil {
		s.t.Fatal(err)
	}
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(context.Context, struct {
		Path string `json:"path"`
	}) (string, error) {
		return "deleted", nil
	}, dispatch.NeedsApproval())
	touch := dispatch.MustFunc("touch", "Touch a file.", func(context.Context, struct{}) (string, error) {
		return "touched", nil
	})
	s.st = st
	s.h = NewHandler(func(ctx context.Context, id string) (*conductor.Agent, error) {
		box, err := dispatch.NewToolBox(del, touch)
		if err != nil {
			return nil, err
		}
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted", Compaction: s.compaction}, conductor.Deps{
			Model:  conductor.Model{Provider: countingModel{calls: &s.calls, failing: &s.failing}},
			Tools:  conductor.Tools{Box: box},
			People: conductor.People{Approver: conductor.ApproveLater},
			Env:    conductor.Env{Store: st, SessionID: id},
			Retrieval: conductor.Retrieval{Retriever: func(ctx context.Context, _ []contract.Turn) ([]contract.Turn, error) {
				if s.retrieving == nil {
					return nil, nil
				}
				s.retrieving <- struct{}{}
				select {
				case <-s.gate:
				case <-ctx.Done():
				}
				return nil, nil
			}},
		})
		if err != nil {
			return nil, err
		}
		if _, err := st.Head(ctx, id); err == nil {
			if _, err := a.Reopen(ctx, id); err != nil {
				a.Close()
				return nil, err
			}
		}
		return a, nil
	}, HandlerOptions{ClientAnswers: true, Protocol: s.proto})
	s.srv = httptest.NewServer(s.h)
}

func (s *repostServer) stop() {
	if s.srv == nil {
		return
	}
	s.srv.Close()
	if err := s.h.Close(); err != nil {
		s.t.Errorf("handler Close: %v", err)
	}
	if err := s.st.Close(); err != nil {
		s.t.Errorf("store Close: %v", err)
	}
	s.srv = nil
}

func (s *repostServer) restart() {
	s.stop()
	s.start()
}

// body is a request of thread t1 whose conversation is msgs, each an
// id and a text, a reply between each two.
func (s *repostServer) body(msgs ...[2]string) string {
	if s.proto == ProtocolAGUI {
		var out []map[string]any
		for i, m := range msgs {
			if i > 0 {
				out = append(out, map[string]any{"id": "a" + m[0], "role": "assistant", "content": "reply to " + msgs[i-1][1]})
			}
			out = append(out, map[string]any{"id": m[0], "role": "user", "content": m[1]})
		}
		return aguiBody("t1", out)
	}
	var out []any
	for i, m := range msgs {
		if i > 0 {
			out = append(out, map[string]any{"id": "a" + m[0], "role": "assistant", "parts": []any{map[string]any{"type": "text", "text": "reply to " + msgs[i-1][1]}}})
		}
		out = append(out, map[string]any{"id": m[0], "role": "user", "parts": []any{map[string]any{"type": "text", "text": m[1]}}})
	}
	b, _ := json.Marshal(map[string]any{"id": "t1", "trigger": "submit-message", "messages": out})
	return string(b)
}

// posted is what a client read of a post's answer: its status, and of a
// stream the run it showed, its text, whether it told of an error and
// whether it ended as a finished stream does.
type posted struct {
	Code   int
	RunID  string
	Text   string
	Failed bool
	Ended  bool
	Body   string
}

func (s *repostServer) post(body string) posted {
	s.t.Helper()
	resp, err := http.Post(s.srv.URL, "application/json", strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	p := posted{Code: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		p.Body = strings.TrimSpace(string(b))
		return p
	}
	var text strings.Builder
	if s.proto == ProtocolAISDK {
		types, chunks := readUI(s.t, resp.Body)
		for _, c := range chunks {
			switch c.Type {
			case aisdk.Start:
				p.RunID = c.MessageID
			case aisdk.TextDelta:
				text.WriteString(c.Delta)
			case aisdk.Error:
				p.Failed = true
			}
		}
		p.Ended = len(types) >= 2 && types[len(types)-2] == aisdk.Finish && types[len(types)-1] == "[DONE]"
		p.Text = text.String()
		return p
	}
	frames := readSSE(s.t, resp.Body)
	for _, f := range frames {
		switch f.Event.Type {
		case agui.RunStarted:
			p.RunID = f.Event.RunID
		case agui.TextMessageContent:
			text.WriteString(f.Event.Delta)
		case agui.RunError:
			p.Failed = true
		}
	}
	p.Ended = len(frames) > 0 && frames[len(frames)-1].Event.Type == agui.RunFinished
	p.Text = text.String()
	return p
}

// userTexts are the user messages of thread t1's history, in order,
// without the notes the runtime adds (a failed run's).
func (s *repostServer) userTexts() []string {
	s.h.mu.Lock()
	th := s.h.threads["t1"]
	s.h.mu.Unlock()
	if th == nil {
		s.t.Fatal("thread t1 is not open")
	}
	var out []string
	for _, turn := range th.r.Snapshot().History.Turns() {
		if turn.Role == contract.RoleUser && turn.Mark != contract.MarkRunFailed {
			out = append(out, turn.Text())
		}
	}
	return out
}
