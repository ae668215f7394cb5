package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
)

// steerHeld is an agent's runner whose first Steer says so on arrived
// and waits for gate before it steers: the test lets the run end in
// between.
type steerHeld struct {
	agentRunner
	once    *sync.Once
	arrived chan<- struct{}
	gate    <-chan struct{}
}

func (r steerHeld) Steer(ctx context.Context, input []contract.Turn) error {
	r.once.Do(func() {
		r.arrived <- struct{}{}
		<-r.gate
	})
	return r.agentRunner.Steer(ctx, input)
}

// ownApprovalBodies are the bodies a client of proto posts on thread
// c1 whose run waits for approval of its own call d1 (see cleaner): the
// message that starts the run, and a message that carries the decision
// (yes) on d1 and new text.
func ownApprovalBodies(proto Protocol) (first, steer string) {
	if proto == ProtocolAISDK {
		user := func(id, text string) map[string]any {
			return map[string]any{"id": id, "role": "user", "parts": []any{map[string]any{"type": "text", "text": text}}}
		}
		b, _ := json.Marshal(map[string]any{"id": "c1", "trigger": "submit-message", "messages": []any{
			user("u1", "clean up"),
			map[string]any{"id": "a1", "role": "assistant", "parts": []any{
				map[string]any{"type": "step-start"},
				map[string]any{"type": "text", "text": "Deleting.", "state": "done"},
				map[string]any{"type": "tool-delete_file", "toolCallId": "d1", "state": "approval-responded", "input": map[string]any{"path": "bûild-d1"},
					"approval": map[string]any{"id": "d1", "approved": true}},
			}},
			user("u2", "and tidy up"),
		}})
		return chatBody("c1", "clean up"), string(b)
	}
	user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
	yes := map[string]any{"id": "t1", "role": "tool", "toolCallId": "d1", "content": "yes"}
	u2 := map[string]any{"id": "u2", "role": "user", "content": "and tidy up"}
	return aguiBody("c1", []map[string]any{user}), aguiBody("c1", []map[string]any{user, yes, u2})
}

// TestADecisionThatEndsTheRunBeforeItsSteer: the client decides a call
// its run waits on (a delegate's, or the run's own) and writes a message
// in one post; the decision lets the run go on to its end before the
// message can steer it, so the message starts the next run. The post's
// stream carries, in order and once, the rest of the run the decision
// resumed (the decided call's result, the run's reply and end) and then
// the next run, as the official clients read it. The stream showed only
// the next run: the client never got the decided call's result nor the
// first run's reply, and an AI SDK client's part for the call stayed in
// approval-responded.
func TestADecisionThatEndsTheRunBeforeItsSteer(t *testing.T) {
	const deleted = "supprimé « build » ✓ 東京"
	const deletedOwn = "supprimé « bûild-d1 » ✓ 東京"
	cases := []struct {
		name   string
		thread string
		serve  func(t *testing.T, proto Protocol, runner func(*conductor.Agent) Runner) *flowServer
		// bodies are the post that starts the run, and the post with the
		// decision and the message.
		bodies func(proto Protocol) (string, string)
		want   map[Protocol][]string
	}{{
		name:   "delegated",
		thread: "x1",
		serve: func(t *testing.T, proto Protocol, runner func(*conductor.Agent) Runner) *flowServer {
			return cleanerRunnerServer(t, t.TempDir(), proto, append(delegatingCleaner(), says("Tidied.")), runner)
		},
		bodies: func(proto Protocol) (string, string) {
			first, _ := delegatedApprovalBodies(proto, true)
			steer, _ := childApprovalBodies(proto, true)
			return first, steer
		},
		want: map[Protocol][]string{
			ProtocolAGUI:  {"result call_d/d1: " + deleted, "tool call_d: Cleaned.", "text: Done.", "text: Tidied."},
			ProtocolAISDK: {"tool call_d/d1 output-available: " + deleted, "tool call_d output-available: Cleaned.", "text: Done.", "text: Tidied."},
		},
	}, {
		name:   "own",
		thread: "c1",
		serve: func(t *testing.T, proto Protocol, runner func(*conductor.Agent) Runner) *flowServer {
			return startRunnerFlowServer(t, t.TempDir(), proto, contract.AgentConfig{}, byHistory(cleaner), nil, runner, deleteTool())
		},
		bodies: ownApprovalBodies,
		want: map[Protocol][]string{
			// The next run asks for its own call's approval and stops.
			ProtocolAGUI:  {"tool d1: " + deletedOwn, "text: Result: " + deletedOwn, "text: Deleting.", "call d2"},
			ProtocolAISDK: {"tool d1 output-available: " + deletedOwn, "text: Result: " + deletedOwn, "text: Deleting.", "tool d2 approval-requested: "},
		},
	}}
	for _, c := range cases {
		for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
			t.Run(c.name+"/"+string(proto), func(t *testing.T) {
				dir := aiSDKDir(t)
				arrived := make(chan struct{})
				gate, release := heldGate(t)
				s := cutStreams(t, c.serve(t, proto, func(a *conductor.Agent) Runner {
					return steerHeld{agentRunner: agentRunner{a}, once: &sync.Once{}, arrived: arrived, gate: gate}
				}))
				first, steer := c.bodies(proto)
				wantApprovalRequest(t, "first stream", s.srv.URL, first, "d1")
				th, returned := threadReturned(s.h, c.thread)

				answer := postLater(s.srv.URL, steer)
				<-arrived
				// The decision was applied: the run goes on to its end and
				// returns before the message's steer reaches it.
				<-returned
				release()
				a := answerOK(t, "post", answer)
				got := foldLines(t, proto, dir, a.body)
				if diff := cmp.Diff(c.want[proto], got); diff != "" {
					t.Errorf("what the client rebuilt from the post's stream mismatch (-want +got):\n%s", diff)
				}
				wantSaidOnce(t, th, "and tidy up")
			})
		}
	}
}

// aguiFoldLines folds an AG-UI stream body with the official client
// (apply.mjs) and returns, in order, the delegated runs' tool results
// (which reach an AG-UI client as the child's events, before the fold's
// messages), then the tool results, texts and tool calls of the messages
// the client rebuilt.
func aguiFoldLines(t *testing.T, body string) []string {
	t.Helper()
	var lines []string
	frames := readSSE(t, strings.NewReader(body))
	for _, f := range frames {
		if v, ok := f.Event.Value.(map[string]any); ok && f.Event.Name == agui.CustomSubflow && v["kind"] == "tool_result" {
			lines = append(lines, fmt.Sprintf("result %v/%v: %v", v["subflow"].([]any)[0], v["toolCallId"], v["content"]))
		}
	}
	return append(lines, messageLines(officialFold(t, nil, frames))...)
}

// uiFoldLines rebuilds the message of a UI message stream body with the
// AI SDK's stream reader (fold.mjs), as uiFoldTexts does, and returns
// its text and tool parts, the latter with their states and outputs, in
// order. A start that names a message other than the first's fails the
// test: the AI SDK's Chat would add a second message for it, holding
// the parts of both.
func uiFoldLines(t *testing.T, dir, body string) []string {
	t.Helper()
	chunks := []json.RawMessage{}
	var first string
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c struct {
			Type      string `json:"type"`
			MessageID string `json:"messageId"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		if c.Type == "start" && c.MessageID != "" {
			if first == "" {
				first = c.MessageID
			} else if c.MessageID != first {
				t.Errorf("a start names message %q after %q: the Chat would hold two messages", c.MessageID, first)
			}
		}
		chunks = append(chunks, json.RawMessage(data))
	}
	out := runFold(t, dir, chunks)
	var messages []struct {
		Parts []struct {
			Type       string           `json:"type"`
			Text       string           `json:"text"`
			ToolCallID string           `json:"toolCallId"`
			State      string           `json:"state"`
			Output     *json.RawMessage `json:"output"`
		} `json:"parts"`
	}
	if err := json.Unmarshal(out, &messages); err != nil || len(messages) != 1 {
		t.Fatalf("fold.mjs printed %q: %v", out, err)
	}
	var lines []string
	for _, p := range messages[0].Parts {
		switch {
		case p.Type == "text":
			lines = append(lines, "text: "+p.Text)
		case p.ToolCallID != "":
			var output string
			if p.Output != nil {
				_ = json.Unmarshal(*p.Output, &output)
			}
			lines = append(lines, "tool "+p.ToolCallID+" "+p.State+": "+output)
		}
	}
	return lines
}
