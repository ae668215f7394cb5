package wire

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// TestAnAbandonedQuestionLetsItsThreadGo: with ClientAnswers, as baton
// serve runs it, a thread whose run waits for an answer from a client
// that went away is closed once idle, its run left waiting in the store,
// and the client's answer, when it comes, opens it again. Before, every
// abandoned question held a live thread (and its session lock) for ever,
// and once MaxThreads of them piled up every new thread got 503.
func TestAnAbandonedQuestionLetsItsThreadGo(t *testing.T) {
	st := store.NewMemory()
	newAgent := func(ctx context.Context, id string) (*conductor.Agent, error) {
		box, err := dispatch.NewToolBox(dispatch.AskHuman(""))
		if err != nil {
			return nil, err
		}
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: asker{}}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
		if err != nil {
			return nil, err
		}
		return reopenStored(ctx, st, a, id)
	}
	h := NewHandler(newAgent, HandlerOptions{ClientAnswers: true, MaxThreads: 1, IdleTimeout: 50 * time.Millisecond})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	post := func(thread string) (int, string) {
		b, _ := json.Marshal(map[string]any{"threadId": thread, "runId": "r", "messages": []any{map[string]any{"id": "u1", "role": "user", "content": "go"}}})
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := post("a"); code != http.StatusOK || !strings.Contains(body, "awaiting_human") {
		t.Fatalf("first thread: %d %q, want a stream that waits for the answer", code, body)
	}
	// The client leaves; the thread has no request for its idle timeout.
	waitFor(t, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		_, live := h.threads["a"]
		return !live
	})
	if code, body := post("b"); code != http.StatusOK {
		t.Fatalf("a new thread after the first one idled with its question open: %d %q", code, body)
	}
	// The first client comes back and answers: its run goes on.
	b, _ := json.Marshal(map[string]any{"threadId": "a", "runId": "r2", "messages": []any{
		map[string]any{"id": "u1", "role": "user", "content": "go"},
		map[string]any{"id": "a1", "role": "assistant", "content": "One question first."},
		map[string]any{"id": "t1", "role": "tool", "toolCallId": "q1", "content": "Oslo"},
	}})
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Going to Oslo.") {
		t.Fatalf("the answer after the thread was released: %d %q", resp.StatusCode, body)
	}
}

// TestAnAbandonedChildQuestionLetsItsThreadGo: a thread whose run waits
// only on a delegate's question, its client gone, is let go when idle as
// one waiting on its own question is, and the answer that comes later
// opens it again and reaches the child.
func TestAnAbandonedChildQuestionLetsItsThreadGo(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			srv := askingChildServerWith(t, store.NewMemory(), askingChildScript(), HandlerOptions{ClientAnswers: true, Protocol: proto, IdleTimeout: 50 * time.Millisecond})
			h := srv.Config.Handler.(*Handler)
			first, answer := childAnswerBodies(proto)
			if code, b := post(t, srv.URL, first); code != http.StatusOK || !strings.Contains(b, "call_d/q1") {
				t.Fatalf("first stream: %d, want the child's question call_d/q1:\n%s", code, b)
			}
			waitFor(t, func() bool {
				h.mu.Lock()
				defer h.mu.Unlock()
				_, live := h.threads["t1"]
				return !live
			})
			if code, b := post(t, srv.URL, answer); code != http.StatusOK || !strings.Contains(b, "The city is Bergen.") {
				t.Fatalf("the answer after the thread was let go: %d, want the child's answer streamed:\n%s", code, b)
			}
		})
	}
}
