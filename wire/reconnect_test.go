package wire

import (
	"context"
	"fmt"
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

// aguiClient folds AG-UI events as the pinned @ag-ui/client does: the
// text of each message, reasoning message and tool call's arguments by
// id, and the tool results. Each fold is one stream, which the client
// takes as one AG-UI run and checks as its verifier does: content or an
// end for what the stream has not started, or a start for what it has
// started and not ended, is a fault (the client errors the run). A start
// for a message or call the client holds from an earlier stream keeps it
// as it is: no new message, its text not reset. A MESSAGES_SNAPSHOT
// replaces what it holds, but for its reasoning messages when the
// snapshot has none.
type aguiClient struct {
	text      map[string]string
	reasoning map[string]bool
	results   []string
	faults    []string
}

func newAGUIClient() *aguiClient {
	return &aguiClient{text: map[string]string{}, reasoning: map[string]bool{}}
}

// snapshot takes a MESSAGES_SNAPSHOT's message list for the client's.
func (c *aguiClient) snapshot(msgs []agui.Message) {
	keepReasoning := !slices.ContainsFunc(msgs, func(m agui.Message) bool { return m.Role == "reasoning" })
	text, reasoning := map[string]string{}, map[string]bool{}
	if keepReasoning {
		for id := range c.reasoning {
			text[id], reasoning[id] = c.text[id], true
		}
	}
	c.results = nil
	for _, m := range msgs {
		switch m.Role {
		case "tool":
			c.results = append(c.results, m.ToolCallID+": "+m.Content)
			continue
		case "reasoning":
			reasoning[m.ID] = true
		}
		text[m.ID] = m.Content
		for _, call := range m.ToolCalls {
			text[call.ID] = call.Function.Arguments
		}
	}
	c.text, c.reasoning = text, reasoning
}

func (c *aguiClient) fold(frames []sseFrame) {
	active := map[string]bool{}
	for _, f := range frames {
		e := f.Event
		switch e.Type {
		case agui.MessagesSnapshot:
			c.snapshot(e.Messages)
		case agui.TextMessageStart, agui.ReasoningMessageStart:
			c.start(active, e.Type, e.MessageID)
			if e.Type == agui.ReasoningMessageStart {
				c.reasoning[e.MessageID] = true
			}
			if _, held := c.text[e.MessageID]; !held {
				c.text[e.MessageID] = ""
			}
		case agui.ToolCallStart:
			c.start(active, e.Type, e.ToolCallID)
			if _, held := c.text[e.ToolCallID]; !held {
				c.text[e.ToolCallID] = ""
			}
		case agui.ReasoningStart:
			c.start(active, e.Type, e.MessageID)
		case agui.TextMessageContent, agui.ReasoningMessageContent:
			if c.started(active, e.Type, e.MessageID) {
				c.text[e.MessageID] += e.Delta
			}
		case agui.ToolCallArgs:
			if c.started(active, e.Type, e.ToolCallID) {
				c.text[e.ToolCallID] += e.Delta
			}
		case agui.TextMessageEnd, agui.ReasoningMessageEnd, agui.ReasoningEnd:
			c.end(active, e.Type, e.MessageID)
		case agui.ToolCallEnd:
			c.end(active, e.Type, e.ToolCallID)
		case agui.ToolCallResult:
			c.results = append(c.results, e.ToolCallID+": "+*e.Content)
		}
	}
}

// span names what an event starts, continues or ends, as the verifier
// tells them apart.
func span(typ, id string) string {
	switch typ {
	case agui.TextMessageStart, agui.TextMessageContent, agui.TextMessageEnd:
		return "text message " + id
	case agui.ReasoningMessageStart, agui.ReasoningMessageContent, agui.ReasoningMessageEnd:
		return "reasoning message " + id
	case agui.ReasoningStart, agui.ReasoningEnd:
		return "reasoning " + id
	}
	return "tool call " + id
}

func (c *aguiClient) start(active map[string]bool, typ, id string) {
	if k := span(typ, id); active[k] {
		c.faults = append(c.faults, fmt.Sprintf("%s for %s, which is in progress", typ, k))
	} else {
		active[k] = true
	}
}

func (c *aguiClient) started(active map[string]bool, typ, id string) bool {
	if !active[span(typ, id)] {
		c.faults = append(c.faults, fmt.Sprintf("%s for %s, which was not started", typ, span(typ, id)))
		return false
	}
	return true
}

func (c *aguiClient) end(active map[string]bool, typ, id string) {
	if c.started(active, typ, id) {
		delete(active, span(typ, id))
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
// and the resumed stream is a run it accepts (what was open at the cut
// is started again before its content).
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
			if len(whole.faults) > 0 {
				t.Fatalf("the uninterrupted stream: the client errors the run: %v", whole.faults)
			}
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
				if len(c.faults) > 0 {
					t.Fatalf("reconnect after %s: the client errors the run: %v", frames[i].ID, c.faults)
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
			if len(whole.faults) > 0 {
				t.Fatalf("the uninterrupted stream: the client errors the run: %v", whole.faults)
			}
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
				if len(c.faults) > 0 {
					t.Fatalf("reconnect after %s to a reopened thread: the client errors the run: %v", frames[i].ID, c.faults)
				}
			}
		})
	}
}

// A client cut again right after the RUN_STARTED of the stream it
// resumed, reconnecting with that frame's id, ends with exactly what a
// client that never left has, on the live thread and on one closed for
// idleness and opened again from the store: the resumed stream starts
// where the client stands inside the model call (its reasoning, its text
// or a call's arguments), not at the newest committed event, before
// deltas the client has ("Let me Let me check.").
func TestReconnectTwiceIsExact(t *testing.T) {
	for name, idle := range map[string]time.Duration{"live thread": 0, "reopened thread": 10 * time.Millisecond} {
		t.Run(name, func(t *testing.T) {
			e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{IdleTimeout: idle}})
			resp := e.post(context.Background(), runBody("t1", "go"), nil)
			frames := readSSE(t, resp.Body)
			resp.Body.Close()
			whole := newAGUIClient()
			whole.fold(frames)
			reconnect := func(last string) []sseFrame {
				if idle > 0 {
					waitFor(t, func() bool { return e.liveThreads() == 0 })
				}
				return e.getResume("t1", last)
			}
			cutInside := map[string]bool{}
			for i, f := range frames {
				if f.ID == "" {
					continue
				}
				resumed := reconnect(f.ID)
				if len(resumed) == 0 || resumed[0].Event.Type != agui.RunStarted {
					continue
				}
				cutInside[f.Event.Type] = true
				c := newAGUIClient()
				c.fold(frames[:i+1])
				c.fold(resumed[:1])
				c.fold(reconnect(resumed[0].ID))
				if diff := cmp.Diff(whole.text, c.text); diff != "" {
					t.Fatalf("reconnect after %s, then after the resumed RUN_STARTED (%s): text mismatch (-want +got):\n%s", f.ID, resumed[0].ID, diff)
				}
				if diff := cmp.Diff(whole.results, c.results); diff != "" {
					t.Fatalf("reconnect after %s, then after the resumed RUN_STARTED (%s): results mismatch (-want +got):\n%s", f.ID, resumed[0].ID, diff)
				}
				if len(c.faults) > 0 {
					t.Fatalf("reconnect after %s, then after the resumed RUN_STARTED (%s): the client errors the run: %v", f.ID, resumed[0].ID, c.faults)
				}
			}
			for _, typ := range []string{agui.ReasoningMessageContent, agui.TextMessageContent, agui.ToolCallArgs} {
				if !cutInside[typ] {
					t.Errorf("no cut right after a %s", typ)
				}
			}
		})
	}
}
