package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// flowResult is what flow.mjs prints.
type flowResult struct {
	Messages []json.RawMessage   `json:"messages"`
	Errors   []string            `json:"errors"`
	Thrown   []string            `json:"thrown"`
	Runs     [][]json.RawMessage `json:"runs"`
}

// aguiFlow runs flow.mjs with steps; messages, when not "", is the file
// the client's messages are kept in between runs of node.
func aguiFlow(t *testing.T, url, thread, messages string, steps ...string) flowResult {
	t.Helper()
	var env []string
	if messages != "" {
		env = []string{"MESSAGES=" + messages}
	}
	var res flowResult
	out := runNode(t, aguiClientDir(t), env, append([]string{"flow.mjs", url, thread}, steps...)...)
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("flow output %q: %v", out, err)
	}
	return res
}

// threadHistory is the history of the thread's runner as h holds it.
func threadHistory(t *testing.T, h *Handler, id string) []string {
	t.Helper()
	h.mu.Lock()
	th := h.threads[id]
	h.mu.Unlock()
	if th == nil {
		t.Fatalf("no thread %q", id)
	}
	return historyLines(th.r.Snapshot().History)
}

// byHistory plays a reply chosen from the request's history.
type byHistory func(h contract.History) []turn.Chunk

func (f byHistory) Stream(_ context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range f(req.History) {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// withoutDecisions drops the tool messages flow.mjs added to answer an
// approval: the client's decision, not a result of the conversation.
func withoutDecisions(t *testing.T, raw []json.RawMessage) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, r := range raw {
		var m struct {
			ID, Role string
		}
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		if m.Role == "tool" && strings.HasPrefix(m.ID, "answer-") {
			continue
		}
		out = append(out, r)
	}
	return out
}

// uiFlowResult is what flow-ui.mjs prints.
type uiFlowResult struct {
	Messages []struct {
		ID    string `json:"id"`
		Role  string `json:"role"`
		Parts []struct {
			Type       string          `json:"type"`
			Text       string          `json:"text"`
			ToolCallID string          `json:"toolCallId"`
			State      string          `json:"state"`
			Input      json.RawMessage `json:"input"`
			Output     json.RawMessage `json:"output"`
			ErrorText  string          `json:"errorText"`
		} `json:"parts"`
	} `json:"messages"`
	Errors []string `json:"errors"`
	Types  []string `json:"types"`
}

func uiFlow(t *testing.T, url, chat, messages string, steps ...string) uiFlowResult {
	t.Helper()
	var env []string
	if messages != "" {
		env = []string{"MESSAGES=" + messages}
	}
	var res uiFlowResult
	out := runNode(t, aiSDKDir(t), env, append([]string{"flow-ui.mjs", url, chat}, steps...)...)
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("flow-ui output %q: %v", out, err)
	}
	return res
}

// lines renders the chat as historyLines renders a history: a user
// message's text; per step of an assistant message, its text, its calls,
// then their outputs (a denied call's as the error text the model got).
func (res uiFlowResult) lines(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, m := range res.Messages {
		if m.Role == "user" {
			text := ""
			for _, p := range m.Parts {
				if p.Type == "text" {
					text += p.Text
				}
			}
			out = append(out, "user: "+text)
			continue
		}
		var text string
		var calls, outputs []string
		started := false
		flush := func() {
			if started || text != "" || len(calls) > 0 {
				if text != "" || len(calls) > 0 {
					out = append(append(append(out, "assistant: "+text), calls...), outputs...)
				}
			}
			text, calls, outputs = "", nil, nil
		}
		for _, p := range m.Parts {
			switch {
			case p.Type == "step-start":
				flush()
				started = true
			case p.Type == "text":
				text += p.Text
			case len(p.Type) > 5 && p.Type[:5] == "tool-":
				var input bytes.Buffer
				_ = json.Compact(&input, p.Input)
				calls = append(calls, "  call "+p.ToolCallID+" "+p.Type[5:]+" "+input.String())
				var output string
				if json.Unmarshal(p.Output, &output) != nil {
					output = string(p.Output)
				}
				if p.State != "output-available" {
					output = "[" + p.State + "] " + p.ErrorText
				}
				outputs = append(outputs, "tool "+p.ToolCallID+": "+output)
			}
		}
		flush()
	}
	return out
}

// flowServer serves agents on prov with tools over a file store in dir,
// leaving questions and approvals to the client as baton serve does;
// mod, when set, changes the agents' deps.
type flowServer struct {
	h       *Handler
	srv     *httptest.Server
	resumes atomic.Int64
	posts   atomic.Int64
}

func startFlowServer(t *testing.T, dir string, proto Protocol, cfg contract.AgentConfig, prov turn.Provider, mod func(*conductor.Deps), tools ...dispatch.Tool) *flowServer {
	t.Helper()
	return startRunnerFlowServer(t, dir, proto, cfg, prov, mod, AgentRunner, tools...)
}

// startRunnerFlowServer is startFlowServer serving each agent through
// runner, for a test that needs to see what the handler asks of it.
func startRunnerFlowServer(t *testing.T, dir string, proto Protocol, cfg contract.AgentConfig, prov turn.Provider, mod func(*conductor.Deps), runner func(*conductor.Agent) Runner, tools ...dispatch.Tool) *flowServer {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model == "" {
		cfg.Model = "scripted"
	}
	s := &flowServer{}
	s.h = NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
		box, err := dispatch.NewToolBox(tools...)
		if err != nil {
			return nil, err
		}
		deps := conductor.Deps{Model: conductor.Model{Provider: prov}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}}
		if mod != nil {
			mod(&deps)
		}
		a, err := conductor.CreateAgent(cfg, deps)
		if err != nil {
			return nil, err
		}
		if a, err = reopenStored(ctx, st, a, id); err != nil {
			return nil, err
		}
		return runner(a), nil
	}, HandlerOptions{Protocol: proto, ClientAnswers: true})
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Last-Event-ID") != "" {
			s.resumes.Add(1)
		}
		if r.Method == http.MethodPost {
			s.posts.Add(1)
		}
		s.h.ServeHTTP(w, r)
	}))
	t.Cleanup(s.stop)
	return s
}

func (s *flowServer) stop() {
	s.srv.Close()
	s.h.Close()
}

// cleaner deletes a file (a call that needs approval) for each user
// message, then reports the result, thinking about it first.
func cleaner(h contract.History) []turn.Chunk {
	last, _ := h.Last()
	if r := last.Results(); len(r) > 0 {
		return []turn.Chunk{{Kind: turn.ChunkThinking, Text: "résumé: " + r[0].Content}, {Kind: turn.ChunkText, Text: "Result: " + r[0].Content}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	}
	users := 0
	for _, t := range h.Turns() {
		if t.Role == contract.RoleUser {
			users++
		}
	}
	id := fmt.Sprintf("d%d", users)
	return []turn.Chunk{
		{Kind: turn.ChunkText, Text: "Deleting."},
		{Kind: turn.ChunkToolCallStart, CallID: id, Name: "delete_file"},
		{Kind: turn.ChunkToolCallArgs, Text: `{"path":"bûild-` + id + `"}`},
		{Kind: turn.ChunkToolCallEnd},
		{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
	}
}

// deleteTool needs approval and answers in more than ASCII.
func deleteTool() dispatch.Tool {
	return dispatch.MustFunc("delete_file", "Delete a file.", func(_ context.Context, in struct {
		Path string `json:"path"`
	}) (string, error) {
		return "supprimé « " + in.Path + " » ✓ 東京", nil
	}, dispatch.NeedsApproval())
}

// TestAGUIClientGetsTheResultOfAnApprovedCall: the official AG-UI client
// approves a call with a tool message; the call then runs, and its
// result, not the client's "yes", is what the conversation holds: the
// client must get it, in this run and in the next ones (their messages
// carry the first's calls and results as the client keeps them), also
// after the thread is opened again from the store. A denied call's
// result is the denial the model got. The client was sent no result for
// an approved call at all: its state kept "yes" as the call's result.
func TestAGUIClientGetsTheResultOfAnApprovedCall(t *testing.T) {
	aguiClientDir(t)
	data := t.TempDir()
	kept := filepath.Join(t.TempDir(), "messages.json")
	s := startFlowServer(t, data, ProtocolAGUI, contract.AgentConfig{}, byHistory(cleaner), nil, deleteTool())
	res := aguiFlow(t, s.srv.URL, "c1", kept, "user:clean up", "answer:yes", "user:again", "answer:no")
	if len(res.Thrown) > 0 || len(res.Errors) > 0 {
		t.Fatalf("client threw %q, saw RUN_ERROR %q", res.Thrown, res.Errors)
	}
	want := threadHistory(t, s.h, "c1")
	if diff := cmp.Diff(want, flatten(t, withoutDecisions(t, res.Messages))); diff != "" {
		t.Errorf("client messages mismatch (-want committed +got client):\n%s", diff)
	}
	s.stop()
	s = startFlowServer(t, data, ProtocolAGUI, contract.AgentConfig{}, byHistory(cleaner), nil, deleteTool())
	res = aguiFlow(t, s.srv.URL, "c1", kept, "user:third", "answer:always")
	if len(res.Thrown) > 0 || len(res.Errors) > 0 {
		t.Fatalf("after reopening, client threw %q, saw RUN_ERROR %q", res.Thrown, res.Errors)
	}
	want = threadHistory(t, s.h, "c1")
	if diff := cmp.Diff(want, flatten(t, withoutDecisions(t, res.Messages))); diff != "" {
		t.Errorf("after reopening, client messages mismatch (-want committed +got client):\n%s", diff)
	}
}

// delegatingCleaner delegates the cleaning to a child whose delete_file
// call needs approval; the child reports, then the parent.
func delegatingCleaner() []func(context.Context) ([]turn.Chunk, error) {
	call := func(id, name, args string) func(context.Context) ([]turn.Chunk, error) {
		return reply(turn.Chunk{Kind: turn.ChunkToolCallStart, CallID: id, Name: name}, turn.Chunk{Kind: turn.ChunkToolCallArgs, Text: args}, turn.Chunk{Kind: turn.ChunkToolCallEnd}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	}
	say := func(text string) func(context.Context) ([]turn.Chunk, error) {
		return reply(turn.Chunk{Kind: turn.ChunkText, Text: text}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})
	}
	return []func(context.Context) ([]turn.Chunk, error){
		call("call_d", "delegate_cleaner", `{"task":"clean"}`),
		call("d1", "delete_file", `{"path":"build"}`),
		say("Cleaned."),
		say("Done."),
	}
}

// cleanerServer serves, on a file store in dir, an agent that delegates
// to "cleaner", whose delete_file calls need approval, on replies.
func cleanerServer(t *testing.T, dir string, proto Protocol, replies []func(context.Context) ([]turn.Chunk, error)) *flowServer {
	t.Helper()
	return cleanerRunnerServer(t, dir, proto, replies, AgentRunner)
}

// cleanerRunnerServer is cleanerServer serving each agent through runner.
func cleanerRunnerServer(t *testing.T, dir string, proto Protocol, replies []func(context.Context) ([]turn.Chunk, error), runner func(*conductor.Agent) Runner) *flowServer {
	t.Helper()
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{
		{Name: "cleaner", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "delete_file"}}}},
	}}
	return startRunnerFlowServer(t, dir, proto, cfg, &script{replies: replies}, nil, runner, deleteTool())
}

func delegatingCleanerServer(t *testing.T, proto Protocol) *flowServer {
	t.Helper()
	return cutStreams(t, cleanerServer(t, t.TempDir(), proto, delegatingCleaner()))
}

// cutStreams cuts s's streams that never end, so that the client says so.
func cutStreams(t *testing.T, s *flowServer) *flowServer {
	timer := time.AfterFunc(10*time.Second, s.srv.CloseClientConnections)
	t.Cleanup(func() { timer.Stop() })
	return s
}

// TestAGUIClientAnswersADelegatedApproval: with ClientAnswers, a
// delegated run's approval request ends the stream as the run's own does
// and as a delegate's question does, shown as a tool call named by its
// path, which the client answers with a tool message; the run then goes
// on to its end. The stream stayed open for ever instead, holding nothing
// the client could answer.
func TestAGUIClientAnswersADelegatedApproval(t *testing.T) {
	aguiClientDir(t)
	s := delegatingCleanerServer(t, ProtocolAGUI)
	kept := filepath.Join(t.TempDir(), "messages.json")
	res := aguiFlow(t, s.srv.URL, "x1", kept, "user:clean up")
	var asked []string
	for _, r := range res.Messages {
		var m clientMessage
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		for _, c := range m.ToolCalls {
			asked = append(asked, c.ID)
		}
	}
	if len(res.Thrown) > 0 || len(res.Errors) > 0 || !slices.Contains(asked, "call_d/d1") {
		t.Fatalf("the stream did not end where the delegated run waits for approval with a call to answer: client threw %q, RUN_ERROR %q, tool calls %q", res.Thrown, res.Errors, asked)
	}
	res = aguiFlow(t, s.srv.URL, "x1", kept, "answer@call_d/d1:yes")
	lines := flatten(t, res.Messages)
	if len(res.Thrown) > 0 || len(res.Errors) > 0 || lines[len(lines)-1] != "assistant: Done." || !slices.Contains(lines, "tool call_d: Cleaned.") {
		t.Errorf("after the approval: client threw %q, RUN_ERROR %q, messages %q", res.Thrown, res.Errors, lines)
	}
}

// TestAISDKClientAnswersADelegatedApproval: the same with the AI SDK's
// Chat: the delegated call's part is in approval-requested when the
// stream ends, and addToolApprovalResponse goes on with the run.
func TestAISDKClientAnswersADelegatedApproval(t *testing.T) {
	aiSDKDir(t)
	s := delegatingCleanerServer(t, ProtocolAISDK)
	kept := filepath.Join(t.TempDir(), "messages.json")
	res := uiFlow(t, s.srv.URL, "x1", kept, "user:clean up")
	var states []string
	if n := len(res.Messages); n > 0 {
		for _, p := range res.Messages[n-1].Parts {
			if strings.HasPrefix(p.Type, "tool-") {
				states = append(states, p.ToolCallID+" "+p.State)
			}
		}
	}
	if len(res.Errors) > 0 || !slices.Contains(states, "call_d/d1 approval-requested") {
		t.Fatalf("the stream did not end where the delegated run waits for approval with a part to approve: errors %q, tool parts %q", res.Errors, states)
	}
	res = uiFlow(t, s.srv.URL, "x1", kept, "approve:yes")
	lines := res.lines(t)
	if len(res.Errors) > 0 || lines[len(lines)-1] != "assistant: Done." {
		t.Errorf("after the approval: errors %q, messages %q", res.Errors, lines)
	}
}
