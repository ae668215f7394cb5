package wire

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// aguiClient folds AG-UI events as a client does: the text of each
// message, reasoning message and tool call's arguments by id, the tool
// results, and how often each message was started.
type aguiClient struct {
	text    map[string]string
	results []string
	starts  map[string]int
}

func newAGUIClient() *aguiClient {
	return &aguiClient{text: map[string]string{}, starts: map[string]int{}}
}

func (c *aguiClient) fold(frames []sseFrame) {
	for _, f := range frames {
		e := f.Event
		switch e.Type {
		case agui.TextMessageStart, agui.ReasoningMessageStart:
			c.starts[e.MessageID]++
		case agui.ToolCallStart:
			c.starts[e.ToolCallID]++
		case agui.TextMessageContent, agui.ReasoningMessageContent:
			c.text[e.MessageID] += e.Delta
		case agui.ToolCallArgs:
			c.text[e.ToolCallID] += e.Delta
		case agui.ToolCallResult:
			c.results = append(c.results, e.ToolCallID+": "+*e.Content)
		}
	}
}

func (e *env) getResume(thread, last string) []sseFrame {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+"?threadId="+thread, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Last-Event-ID", last)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("resume from %s: status %d", last, resp.StatusCode)
	}
	return readSSE(e.t, resp.Body)
}

// A client that reconnects with the Last-Event-ID of any event it got,
// after the run ended, ends with exactly what a client that never left
// has: no text doubled ("Working on Working on step 2."), none missing,
// no message started twice.
func TestReconnectAtAnyEventIsExact(t *testing.T) {
	for name, scripts := range map[string]func() []func(context.Context) ([]turn.Chunk, error){
		"tool run":   weatherScript,
		"long reply": burstScript(400),
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, scripts)
			resp := e.post(context.Background(), runBody("t1", "go"), nil)
			frames := readSSE(t, resp.Body)
			resp.Body.Close()
			whole := newAGUIClient()
			whole.fold(frames)
			if want := e.storedText("t1"); !strings.Contains(strings.Join(slices.Collect(maps.Values(whole.text)), ""), want) {
				t.Fatalf("the uninterrupted stream lacks the stored text %q", want)
			}
			step := max(1, len(frames)/40)
			for i := 0; i < len(frames); i += step {
				if frames[i].ID == "" {
					continue
				}
				c := newAGUIClient()
				c.fold(frames[:i+1])
				c.fold(e.getResume("t1", frames[i].ID))
				if diff := cmp.Diff(whole.text, c.text); diff != "" {
					t.Fatalf("reconnect after %s: text mismatch (-want +got):\n%s", frames[i].ID, diff)
				}
				if diff := cmp.Diff(whole.results, c.results); diff != "" {
					t.Fatalf("reconnect after %s: results mismatch (-want +got):\n%s", frames[i].ID, diff)
				}
				for id, n := range c.starts {
					if n != 1 {
						t.Fatalf("reconnect after %s: %s started %d times", frames[i].ID, id, n)
					}
				}
			}
		})
	}
}

// A reconnect after the thread was closed for idleness and opened again
// from the store, which holds no deltas, is as exact as one to the live
// thread: a client that had part of a message's text gets the rest of
// it, never the whole text again.
func TestReconnectAfterIdleCloseIsExact(t *testing.T) {
	for name, scripts := range map[string]func() []func(context.Context) ([]turn.Chunk, error){
		"tool run":   weatherScript,
		"long reply": burstScript(400),
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnvWith(t, envOptions{scripts: scripts, handler: HandlerOptions{IdleTimeout: 10 * time.Millisecond}})
			resp := e.post(context.Background(), runBody("t1", "go"), nil)
			frames := readSSE(t, resp.Body)
			resp.Body.Close()
			whole := newAGUIClient()
			whole.fold(frames)
			step := max(1, len(frames)/25)
			for i := 0; i < len(frames); i += step {
				if frames[i].ID == "" {
					continue
				}
				waitFor(t, func() bool { return e.liveThreads() == 0 })
				c := newAGUIClient()
				c.fold(frames[:i+1])
				c.fold(e.getResume("t1", frames[i].ID))
				if diff := cmp.Diff(whole.text, c.text); diff != "" {
					t.Fatalf("reconnect after %s to a reopened thread: text mismatch (-want +got):\n%s", frames[i].ID, diff)
				}
				if diff := cmp.Diff(whole.results, c.results); diff != "" {
					t.Fatalf("reconnect after %s to a reopened thread: results mismatch (-want +got):\n%s", frames[i].ID, diff)
				}
				for id, n := range c.starts {
					if n != 1 {
						t.Fatalf("reconnect after %s to a reopened thread: %s started %d times", frames[i].ID, id, n)
					}
				}
			}
		})
	}
}
