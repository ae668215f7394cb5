package wire

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// steerable asks to delete a file first; once a person has said
// something more, it answers what they said. said, when set, gets the
// user texts of every request.
type steerable struct{ said chan<- []string }

func (m steerable) Stream(_ context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		chunks := []turn.Chunk{
			{Kind: turn.ChunkToolCallStart, CallID: "d1", Name: "delete_file"},
			{Kind: turn.ChunkToolCallArgs, Text: `{"path":"build"}`},
			{Kind: turn.ChunkToolCallEnd},
			{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
		}
		var said []string
		for _, t := range req.History.Turns() {
			if t.Role == contract.RoleUser && t.Text() != "" {
				said = append(said, t.Text())
			}
		}
		if m.said != nil {
			m.said <- said
		}
		if len(said) > 1 {
			chunks = []turn.Chunk{{Kind: turn.ChunkText, Text: "Understood: " + said[len(said)-1]}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
		}
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// A message a client posts while the thread's run waits for an approval
// steers that run, as Agent.Submit does, over AG-UI and the AI SDK alike:
// the approval is skipped, the model gets the message, and the client's
// stream carries the rest of the run. It was refused with 409.
func TestAMessageSteersTheRunInFlight(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			said := make(chan []string, 16)
			h, srv := steerServer(t, proto, said)
			post := func(body string) (int, string) {
				resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					return resp.StatusCode, ""
				}
				var text strings.Builder
				if proto == ProtocolAISDK {
					_, chunks := readUI(t, resp.Body)
					if len(chunks) == 0 || chunks[0].Type != aisdk.Start {
						t.Fatalf("stream does not open with start: %v", chunks)
					}
					for _, c := range chunks {
						if c.Type == aisdk.TextDelta {
							text.WriteString(c.Delta)
						}
					}
					return resp.StatusCode, text.String()
				}
				frames := readSSE(t, resp.Body)
				if len(frames) == 0 || frames[0].Event.Type != agui.RunStarted || frames[len(frames)-1].Event.Type != agui.RunFinished {
					t.Fatalf("stream %v, want RUN_STARTED ... RUN_FINISHED", types(frames))
				}
				for _, f := range frames {
					if f.Event.Type == agui.TextMessageContent {
						text.WriteString(f.Event.Delta)
					}
				}
				return resp.StatusCode, text.String()
			}
			body := func(texts ...string) string {
				if proto == ProtocolAISDK {
					return chatBody("t1", texts[len(texts)-1])
				}
				var msgs []map[string]any
				for i, s := range texts {
					msgs = append(msgs, map[string]any{"id": "u" + string(rune('1'+i)), "role": "user", "content": s})
				}
				return aguiBody("t1", msgs)
			}
			if code, _ := post(body("clean up")); code != http.StatusOK {
				t.Fatalf("first message: %d", code)
			}
			if p := phase(h, "t1"); p != contract.PhaseAwaitingApproval {
				t.Fatalf("after the first stream the run is %s, want awaiting approval", p)
			}
			// A retry of the first post is given the run's stream; it
			// neither steers the run nor answers its approval.
			if code, _ := post(body("clean up")); code != http.StatusOK {
				t.Fatalf("the first message posted again: %d", code)
			}
			if p := phase(h, "t1"); p != contract.PhaseAwaitingApproval {
				t.Fatalf("after the retried post the run is %s, want still awaiting approval", p)
			}
			code, text := post(body("clean up", "keep the build"))
			if code != http.StatusOK || text != "Understood: keep the build" {
				t.Fatalf("steering message: %d %q, want 200 and the steered reply", code, text)
			}
			if p := phase(h, "t1"); p.InFlight() {
				t.Errorf("after the steered stream the run is %s", p)
			}
			var last []string
			for len(said) > 0 {
				last = <-said
			}
			if want := []string{"clean up", "keep the build"}; !slices.Equal(last, want) {
				t.Errorf("the model was last given the user messages %q, want each once: %q", last, want)
			}
		})
	}
}

// aguiBody is a RunAgentInput of thread carrying messages.
func aguiBody(thread string, messages []map[string]any) string {
	b, _ := json.Marshal(map[string]any{"threadId": thread, "runId": "client-run", "state": map[string]any{}, "tools": []any{}, "context": []any{}, "messages": messages})
	return string(b)
}

// phase is the phase of the handler's thread id.
func phase(h *Handler, id string) contract.Phase {
	h.mu.Lock()
	t := h.threads[id]
	h.mu.Unlock()
	return t.r.Snapshot().Phase
}

// steerServer serves agents played by steerable whose delete_file call
// waits for the client's approval, and must never run.
// steerServer serves an agent on steerable; said, when not nil, gets the
// user texts of every model request.
func steerServer(t *testing.T, proto Protocol, said chan<- []string) (*Handler, *httptest.Server) {
	t.Helper()
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(_ context.Context, in struct {
		Path string `json:"path"`
	}) (string, error) {
		t.Errorf("the tool ran on %q: the steer should have skipped it", in.Path)
		return "", nil
	}, dispatch.NeedsApproval())
	return approvalServer(t, proto, steerable{said: said}, del)
}

// TestAISDKClientSteersARunWaitingForApproval: the AI SDK's Chat, shown a
// call waiting for approval, sends a message instead; the run takes it as
// steering and the chat's new assistant message holds the steered reply.
func TestAISDKClientSteersARunWaitingForApproval(t *testing.T) {
	dir := aiSDKDir(t)
	_, srv := steerServer(t, ProtocolAISDK, nil)
	var res uiClientResult
	if err := json.Unmarshal(runNode(t, dir, nil, "ui.mjs", srv.URL, "chat-s", "steer", "keep the build"), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("client saw errors: %v", res.Errors)
	}
	var text []string
	for _, p := range res.Message.Parts {
		if p.Type == "text" {
			text = append(text, p.Text)
		}
	}
	if res.Message.Role != "assistant" || !slices.Contains(text, "Understood: keep the build") {
		t.Errorf("the chat's last message is %s with text %q, want the steered reply", res.Message.Role, text)
	}
}

// TestAGUIClientSteersARunWaitingForApproval: the official AG-UI client,
// whose run ended on a call waiting for approval, adds a user message and
// runs the agent again; the baton run takes it as steering and the new
// AG-UI run ends with the steered reply.
func TestAGUIClientSteersARunWaitingForApproval(t *testing.T) {
	dir := aguiClientDir(t)
	_, srv := steerServer(t, ProtocolAGUI, nil)
	var res askResult
	if err := json.Unmarshal(runNode(t, dir, nil, "ask.mjs", srv.URL, "thread-s", "keep the build", "steer"), &res); err != nil {
		t.Fatal(err)
	}
	lines := askLines(res)
	if len(res.Errors) > 0 || len(lines) == 0 || lines[len(lines)-1] != "assistant: Understood: keep the build" {
		t.Errorf("client messages %q, errors %v; want the steered reply last", lines, res.Errors)
	}
}
