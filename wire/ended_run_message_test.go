package wire

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// deafCaller calls the deaf tool once per run, then answers.
type deafCaller struct{}

func (deafCaller) Stream(_ context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		chunks := []turn.Chunk{{Kind: turn.ChunkText, Text: "done"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
		if last := req.History.Turns()[req.History.Len()-1]; last.Role == contract.RoleUser {
			chunks = []turn.Chunk{
				{Kind: turn.ChunkToolCallStart, CallID: "d" + last.Text(), Name: "deaf"},
				{Kind: turn.ChunkToolCallArgs, Text: `{}`},
				{Kind: turn.ChunkToolCallEnd},
				{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
			}
		}
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// TestAMessageAfterTheRunEndedStartsTheNextRun: a message posted once the
// thread's run has ended, while its Submit has not yet returned (its tool
// ignored the timeout and still holds the goroutine), waits for it and
// starts the next run. It was refused with 409, "already has a run in
// flight", with no run in flight to steer.
func TestAMessageAfterTheRunEndedStartsTheNextRun(t *testing.T) {
	stuck := make(chan struct{})
	var released bool
	release := func() {
		if !released {
			released = true
			close(stuck)
		}
	}
	defer release()
	deaf := dispatch.MustFunc("deaf", "Ignores its context.", func(context.Context, struct{}) (string, error) {
		<-stuck
		return "too late", nil
	}, dispatch.Timeout(5*time.Millisecond))
	st := store.NewMemory()
	h := NewHandler(func(ctx context.Context, id string) (*conductor.Agent, error) {
		box, err := dispatch.NewToolBox(deaf)
		if err != nil {
			return nil, err
		}
		return conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: deafCaller{}}, Tools: conductor.Tools{Box: box}, Env: conductor.Env{Store: st, SessionID: id}})
	}, HandlerOptions{})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { release(); srv.Close(); h.Close() })
	post := func(body string) <-chan int { return postInBackground(t, srv.URL, body) }
	msg := func(id, text string) map[string]any { return map[string]any{"id": id, "role": "user", "content": text} }
	first := post(aguiBody("t1", []map[string]any{msg("m1", "1")}))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if p, ok := threadPhase(h, "t1"); ok && p == contract.PhaseSettled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first run never settled")
		}
	}
	second := post(aguiBody("t1", []map[string]any{msg("m1", "1"), msg("m2", "2")}))
	select {
	case code := <-second:
		t.Fatalf("message posted after the run ended: %d before the run's Submit returned, want it to wait and start a run", code)
	case <-time.After(100 * time.Millisecond):
	}
	release()
	if code := <-first; code != http.StatusOK {
		t.Errorf("first post: %d", code)
	}
	if code := <-second; code != http.StatusOK {
		t.Fatalf("second post: %d, want 200", code)
	}
	var runs []string
	for _, e := range threadEvents(t, h, "t1") {
		if e.Kind == contract.EvRunStarted {
			runs = append(runs, e.RunID)
		}
	}
	if len(runs) != 2 {
		b, _ := json.Marshal(runs)
		t.Errorf("runs started: %s, want two", b)
	}
}

// threadPhase is the phase of the handler's thread id, if it is open.
func threadPhase(h *Handler, id string) (contract.Phase, bool) {
	h.mu.Lock()
	t := h.threads[id]
	h.mu.Unlock()
	if t == nil {
		return "", false
	}
	select {
	case <-t.ready:
	default:
		return "", false
	}
	if t.r == nil {
		return "", false
	}
	return t.r.Snapshot().Phase, true
}

// threadEvents are the committed events of the handler's thread id.
func threadEvents(t *testing.T, h *Handler, id string) []contract.RunEvent {
	t.Helper()
	h.mu.Lock()
	th := h.threads[id]
	h.mu.Unlock()
	events, err := th.r.EventsSince(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return events
}
