package wire

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
	"github.com/google/go-cmp/cmp"
)

// askingChildScript: the parent delegates, the child asks a person which
// city, then answers with it, and the parent passes the answer on.
func askingChildScript() []func(context.Context) ([]turn.Chunk, error) {
	return []func(context.Context) ([]turn.Chunk, error){
		callsTool("call_d", "delegate_asker", `{"task":"pick a city"}`),
		callsTool("q1", "ask_human", `{"question":"Which city?"}`),
		says("The city is Bergen."),
		says("Done."),
	}
}

// A question a delegated run asks reaches the client as a tool call of
// the stream's message, named "call_d/q1", and the stream ends there as
// it does for the run's own questions; the client's answer under that id
// (an AG-UI tool message, an AI SDK tool output) reaches the child, and
// the run goes on to its end. The answer was refused with 409: no call
// of the root run waits on it.
func TestAChildsQuestionIsAnsweredOverTheWire(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			srv := askingChildServer(t, proto)
			h := srv.Config.Handler.(*Handler)

			// post returns the status, the tool calls the stream asks
			// (id and input), the results it carries, and how it ended.
			post := func(body string) (code int, asked, results map[string]string, last string) {
				resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				asked, results = map[string]string{}, map[string]string{}
				if resp.StatusCode != http.StatusOK {
					return resp.StatusCode, nil, nil, ""
				}
				if proto == ProtocolAISDK {
					_, chunks := readUI(t, resp.Body)
					for _, c := range chunks {
						switch c.Type {
						case aisdk.ToolInputAvailable:
							in, _ := json.Marshal(c.Input)
							asked[c.ToolCallID] = string(in)
						case aisdk.ToolOutputAvail:
							results[c.ToolCallID] = *c.Output
						case aisdk.Finish:
							last = c.FinishReason
						}
					}
					return resp.StatusCode, asked, results, last
				}
				frames := readSSE(t, resp.Body)
				for _, f := range frames {
					switch e := f.Event; e.Type {
					case agui.ToolCallArgs:
						asked[e.ToolCallID] += e.Delta
					case agui.ToolCallResult:
						results[e.ToolCallID] = *e.Content
					}
				}
				return resp.StatusCode, asked, results, frames[len(frames)-1].Event.Type
			}
			first, answer := childAnswerBodies(proto)
			code, asked, _, last := post(first)
			if code != http.StatusOK || asked["call_d/q1"] != `{"question":"Which city?"}` {
				t.Fatalf("first stream: %d, asked %v, want the child's question as call_d/q1", code, asked)
			}
			if want := map[Protocol]string{ProtocolAGUI: agui.RunFinished, ProtocolAISDK: "tool-calls"}[proto]; last != want {
				t.Errorf("the first stream ended with %q, want %q where the child waits", last, want)
			}
			code, _, results, _ := post(answer)
			if code != http.StatusOK {
				t.Fatalf("answer: %d, want 200", code)
			}
			if got := results["call_d"]; got != "The city is Bergen." {
				t.Errorf("the delegate call's result is %q, want the child's answer; results %v", got, results)
			}
			if p := phase(h, "t1"); p != contract.PhaseSettled {
				t.Errorf("after the answer the run is %s, want settled", p)
			}
		})
	}
}

// childAnswerBodies are the bodies a client of proto posts on thread t1:
// first the message that starts the run, then its answer "Bergen" to the
// child's question call_d/q1.
func childAnswerBodies(proto Protocol) (first, answer string) {
	if proto == ProtocolAISDK {
		b, _ := json.Marshal(map[string]any{"id": "t1", "trigger": "submit-message", "messages": []any{
			map[string]any{"id": "u1", "role": "user", "parts": []any{map[string]any{"type": "text", "text": "go"}}},
			map[string]any{"id": "a1", "role": "assistant", "parts": []any{
				map[string]any{"type": "tool-ask_human", "toolCallId": "call_d/q1", "state": "output-available", "input": map[string]any{"question": "Which city?"}, "output": "Bergen"},
			}},
		}})
		return chatBody("t1", "go"), string(b)
	}
	user := map[string]any{"id": "u1", "role": "user", "content": "go"}
	return aguiBody("t1", []map[string]any{user}), aguiBody("t1", []map[string]any{user, {"id": "t1", "role": "tool", "toolCallId": "call_d/q1", "content": "Bergen"}})
}

// TestAChildsQuestionIsAnsweredAfterARestart: a server stopped while a
// delegated run's question waits keeps the run in its store, and a new
// server over that store takes the client's answer to it, though the
// child's question is not among the events it holds of the thread (the
// parent's session's); the answer reaches the child and the run ends.
// The answer was refused with 409.
func TestAChildsQuestionIsAnsweredAfterARestart(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			st := store.NewMemory()
			first, answer := childAnswerBodies(proto)
			srv := askingChildServerOn(t, proto, st, askingChildScript())
			resp, err := http.Post(srv.URL, "application/json", strings.NewReader(first))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "call_d/q1") {
				t.Fatalf("first stream: %d, want the child's question call_d/q1:\n%s", resp.StatusCode, b)
			}
			srv.Close()
			srv.Config.Handler.(*Handler).Close()

			rest := askingChildScript()[2:]
			again := askingChildServerOn(t, proto, st, rest)
			resp, err = http.Post(again.URL, "application/json", strings.NewReader(answer))
			if err != nil {
				t.Fatal(err)
			}
			b, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "The city is Bergen.") {
				t.Fatalf("answer after the restart: %d, want the child's answer streamed:\n%s", resp.StatusCode, b)
			}
			if p := phase(again.Config.Handler.(*Handler), "t1"); p != contract.PhaseSettled {
				t.Errorf("after the answer the run is %s, want settled", p)
			}
		})
	}
}

// TestAChildsQuestionIsShownAfterARestart: a client that comes to a
// thread afresh after the server restarted (an AG-UI resume from the
// start, an AI SDK resume request) is shown the question the run's
// delegate waits on, which only the child's session holds, and can
// answer it.
// Before, the replayed stream held the parent's events only: the run
// waited on a question no new client was ever shown.
func TestAChildsQuestionIsShownAfterARestart(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			st := store.NewMemory()
			first, answer := childAnswerBodies(proto)
			srv := askingChildServerOn(t, proto, st, askingChildScript())
			if code, b := post(t, srv.URL, first); code != http.StatusOK || !strings.Contains(b, "call_d/q1") {
				t.Fatalf("first stream: %d, want the child's question call_d/q1:\n%s", code, b)
			}
			// Before the restart the thread's log holds the question: it
			// is shown once.
			if code, b := rejoin(t, proto, srv.URL, first); code != http.StatusOK || strings.Count(b, `"kind":"question_asked"`) != 1 {
				t.Fatalf("a new client's stream before the restart: %d, want the child's question once:\n%s", code, b)
			}
			srv.Close()
			srv.Config.Handler.(*Handler).Close()

			again := askingChildServerOn(t, proto, st, askingChildScript()[2:])
			code, b := rejoin(t, proto, again.URL, first)
			if code != http.StatusOK || !strings.Contains(b, "call_d/q1") || !strings.Contains(b, "Which city?") {
				t.Fatalf("a new client's stream after the restart: %d, want the child's question call_d/q1 shown:\n%s", code, b)
			}
			if n := strings.Count(b, `"kind":"question_asked"`); n != 1 {
				t.Errorf("the question is shown %d times, want once:\n%s", n, b)
			}
			if code, b := post(t, again.URL, answer); code != http.StatusOK || !strings.Contains(b, "The city is Bergen.") {
				t.Fatalf("answer: %d, want the child's answer streamed:\n%s", code, b)
			}
		})
	}
}

// rejoin is a client with nothing of thread t1 asking for its stream:
// for AG-UI a post of body resuming from before the first event, for the
// AI SDK its resume request.
func rejoin(t *testing.T, proto Protocol, url, body string) (int, string) {
	t.Helper()
	if proto == ProtocolAISDK {
		return send(t, http.MethodGet, url+"/api/chat/t1/stream", "", "")
	}
	return send(t, http.MethodPost, url, body, "0")
}

// post posts body as JSON to url, bounded, and returns the status and
// the whole response.
func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	return send(t, http.MethodPost, url, body, "")
}

func send(t *testing.T, method, url, body, lastEventID string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestAnAnswerForAChildLeavesTheParentsQuestion: the run asks a person
// "q1" while its delegate's child asks one under the same call id; the
// client's answer to call_d/q1 answers the child's question, and the
// run's own q1 goes on waiting. Before, the answer went to the run's own
// q1, offered first to the run and then to its children by id alone.
func TestAnAnswerForAChildLeavesTheParentsQuestion(t *testing.T) {
	call := func(calls ...[3]string) func(context.Context) ([]turn.Chunk, error) {
		var chunks []turn.Chunk
		for i, c := range calls {
			chunks = append(chunks,
				turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: c[0], Name: c[1]},
				turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: c[2]},
				turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i})
		}
		return reply(append(chunks, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})...)
	}
	replies := []func(context.Context) ([]turn.Chunk, error){
		call([3]string{"q1", "ask_human", `{"question":"When?"}`}, [3]string{"call_d", "delegate_asker", `{"task":"pick a city"}`}),
		call([3]string{"q1", "ask_human", `{"question":"Which city?"}`}),
		reply(turn.Chunk{Kind: turn.ChunkText, Text: "The city is Bergen."}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
	}
	srv := askingChildServerOn(t, ProtocolAGUI, store.NewMemory(), replies)
	h := srv.Config.Handler.(*Handler)
	first, answer := childAnswerBodies(ProtocolAGUI)
	for _, body := range []string{first, answer} {
		// Bounded: were the answer to go to the run's own q1, its stream
		// would not end while the child's question waits.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("status %d, %v:\n%s", resp.StatusCode, err, b)
		}
	}
	var pending map[string]contract.CallState
	waitFor(t, func() bool {
		pending = map[string]contract.CallState{}
		h.mu.Lock()
		th := h.threads["t1"]
		h.mu.Unlock()
		for _, p := range th.r.Snapshot().Pending {
			pending[p.Call.ID] = p.State
		}
		return pending["call_d"] == contract.CallDone
	})
	if pending["q1"] != contract.CallAwaitingHuman {
		t.Errorf("the run's own q1 is %q, want it still waiting; pending %v", pending["q1"], pending)
	}
}

// TestAISDKClientAnswersAChildsQuestion: the AI SDK's Chat sees a
// delegated run's question as a tool part of its own step, waiting for
// input; addToolOutput answers it, the chat sends it back on its own, and
// the run ends with the child's answer as the delegate call's output.
func TestAISDKClientAnswersAChildsQuestion(t *testing.T) {
	dir := aiSDKDir(t)
	srv := askingChildServer(t, ProtocolAISDK)
	var res struct {
		uiClientResult
		Asked struct {
			ToolCallID string `json:"toolCallId"`
			State      string `json:"state"`
		} `json:"asked"`
	}
	if err := json.Unmarshal(runNode(t, dir, nil, "ui.mjs", srv.URL, "chat-c", "ask", "Bergen"), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("client saw errors: %v", res.Errors)
	}
	if res.Asked.ToolCallID != "call_d/q1" || res.Asked.State != "input-available" {
		t.Errorf("the client answered part %q in %s, want the child's question call_d/q1 waiting for input", res.Asked.ToolCallID, res.Asked.State)
	}
	var parts []string
	for _, p := range res.Message.Parts {
		switch {
		case p.Type == "text":
			parts = append(parts, "text "+p.Text)
		case strings.HasPrefix(p.Type, "tool-"):
			parts = append(parts, p.Type+" "+p.ToolCallID+" "+p.State+" "+string(p.Output))
		}
	}
	want := []string{
		`tool-delegate_asker call_d output-available "The city is Bergen."`,
		`tool-ask_human call_d/q1 output-available "Bergen"`,
		"text Done.",
	}
	if diff := cmp.Diff(want, parts); diff != "" {
		t.Errorf("message parts mismatch (-want +got):\n%s", diff)
	}
}

// askingChildServer serves agents that delegate to a child that asks a
// person (askingChildScript), leaving the answer to the client.
func askingChildServer(t *testing.T, proto Protocol) *httptest.Server {
	t.Helper()
	return askingChildServerOn(t, proto, store.NewMemory(), askingChildScript())
}

// askingChildServerOn is askingChildServer over st, its model playing
// replies.
func askingChildServerOn(t *testing.T, proto Protocol, st store.Store, replies []func(context.Context) ([]turn.Chunk, error)) *httptest.Server {
	t.Helper()
	return askingChildServerWith(t, st, replies, HandlerOptions{ClientAnswers: true, Protocol: proto})
}

// askingChildServerWith serves the tree on st with opts; the agents of a
// thread opened again go on with the same script, as with one model.
func askingChildServerWith(t *testing.T, st store.Store, replies []func(context.Context) ([]turn.Chunk, error), opts HandlerOptions) *httptest.Server {
	t.Helper()
	model := &script{replies: replies}
	h := NewHandler(func(ctx context.Context, id string) (*conductor.Agent, error) {
		box, err := dispatch.NewToolBox(dispatch.AskHuman(""))
		if err != nil {
			return nil, err
		}
		cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{
			{Name: "asker", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "ask_human"}}}},
		}}
		a, err := conductor.CreateAgent(cfg, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: box}, Env: conductor.Env{Store: st, SessionID: id}})
		if err != nil {
			return nil, err
		}
		return reopenStored(ctx, st, a, id)
	}, opts)
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return srv
}

// TestAGUIClientAnswersAChildsQuestion: the official AG-UI client sees a
// delegated run's question as the last tool call of its message, answers
// it with a tool message and runs the agent again; the run ends with the
// child's answer as the delegate call's result.
func TestAGUIClientAnswersAChildsQuestion(t *testing.T) {
	dir := aguiClientDir(t)
	srv := askingChildServer(t, ProtocolAGUI)
	var res askResult
	if err := json.Unmarshal(runNode(t, dir, nil, "ask.mjs", srv.URL, "trip-c", "Bergen"), &res); err != nil {
		t.Fatal(err)
	}
	lines := askLines(res)
	if len(res.Errors) > 0 || !strings.Contains(string(res.Question), `"call_d/q1"`) {
		t.Fatalf("asked %s, errors %v; messages %q", res.Question, res.Errors, lines)
	}
	for _, want := range []string{"tool: Bergen (answers call_d/q1)", "tool: The city is Bergen. (answers call_d)", "assistant: Done."} {
		if !slices.Contains(lines, want) {
			t.Errorf("client messages lack %q: %q", want, lines)
		}
	}
}
