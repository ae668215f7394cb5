package wire

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// burstScript replies with words words as text chunks, with no delay.
func burstScript(words int) func() []func(context.Context) ([]turn.Chunk, error) {
	return func() []func(context.Context) ([]turn.Chunk, error) {
		chunks := make([]turn.Chunk, 0, words+1)
		for i := range words {
			chunks = append(chunks, turn.Chunk{Kind: turn.ChunkText, Text: "w" + string(rune('a'+i%26)) + "rd "})
		}
		chunks = append(chunks, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})
		return []func(context.Context) ([]turn.Chunk, error){reply(chunks...)}
	}
}

// storedText is the text of the thread's last assistant turn.
func (e *env) storedText(thread string) string {
	turns := e.agent(thread).Snapshot().History.Turns()
	return turns[len(turns)-1].Text()
}

// A 30,000-word reply streamed with no delay reaches every client whole:
// a Subscribe callback taking 10µs per event, an AG-UI stream and an AI
// SDK stream.
func TestBurstReachesEveryClientWhole(t *testing.T) {
	const words = 30000
	t.Run("subscribe", func(t *testing.T) {
		e := newEnv(t, burstScript(words))
		r, _, err := e.h.acquire(context.Background(), threadName{key: "s1", id: "s1"})
		if err != nil {
			t.Fatal(err)
		}
		defer e.h.release(r)
		var mu sync.Mutex
		var text strings.Builder
		ended := make(chan struct{})
		unsubscribe := r.r.Subscribe(func(ev contract.RunEvent) {
			time.Sleep(10 * time.Microsecond)
			mu.Lock()
			defer mu.Unlock()
			switch ev.Kind {
			case contract.EvTextDelta:
				text.WriteString(ev.Text)
			case contract.EvRunSettled:
				close(ended)
			}
		})
		defer unsubscribe()
		if _, err := r.r.Submit(context.Background(), []contract.Turn{contract.UserText("go")}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ended:
		case <-time.After(30 * time.Second):
			t.Fatal("run_settled never reached the subscriber")
		}
		mu.Lock()
		defer mu.Unlock()
		if got, want := text.String(), e.storedText("s1"); got != want {
			t.Errorf("subscriber got %d of %d bytes", len(got), len(want))
		}
	})
	t.Run("ag-ui", func(t *testing.T) {
		e := newEnv(t, burstScript(words))
		resp := e.post(context.Background(), runBody("t1", "go"), nil)
		defer resp.Body.Close()
		frames := readSSE(t, resp.Body)
		var text strings.Builder
		for _, f := range frames {
			if f.Event.Type == agui.TextMessageContent {
				text.WriteString(f.Event.Delta)
			}
		}
		if got := types(frames); got[len(got)-1] != agui.RunFinished {
			t.Errorf("stream ends with %s", got[len(got)-1])
		}
		if got, want := text.String(), e.storedText("t1"); got != want {
			t.Errorf("AG-UI client got %d of %d bytes", len(got), len(want))
		}
	})
	t.Run("ai-sdk", func(t *testing.T) {
		e := newEnv(t, burstScript(words))
		resp := e.postChat(context.Background(), chatBody("c1", "go"))
		defer resp.Body.Close()
		types, chunks := readUI(t, resp.Body)
		var text strings.Builder
		for _, c := range chunks {
			if c.Type == aisdk.TextDelta {
				text.WriteString(c.Delta)
			}
		}
		if types[len(types)-1] != "[DONE]" {
			t.Errorf("stream ends with %s", types[len(types)-1])
		}
		if got, want := text.String(), e.storedText("c1"); got != want {
			t.Errorf("AI SDK client got %d of %d bytes", len(got), len(want))
		}
	})
}
