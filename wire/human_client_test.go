package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// asker asks where to go until the history holds an answer, then says
// where it goes.
type asker struct{}

func (asker) Stream(_ context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		var chunks []turn.Chunk
		last, _ := req.History.Last()
		if r := last.Results(); len(r) > 0 {
			chunks = []turn.Chunk{{Kind: turn.ChunkText, Text: "Going to " + r[0].Content + "."}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
		} else {
			chunks = []turn.Chunk{
				{Kind: turn.ChunkText, Text: "One question first."},
				{Kind: turn.ChunkToolCallStart, CallID: "q1", Name: dispatch.AskHumanName},
				{Kind: turn.ChunkToolCallArgs, Text: `{"question":"Which city?","choices":["Oslo","Bergen"]}`},
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

// humanServer serves agents that offer ask_human and leave approvals to
// the client, over a file store in dir, as baton serve does.
type humanServer struct {
	h   *Handler
	srv *httptest.Server
}

func startHumanServer(t *testing.T, dir string, proto Protocol) *humanServer {
	t.Helper()
	return startHumanServerWith(t, dir, proto, asker{}, dispatch.AskHuman(""))
}

func startHumanServerWith(t *testing.T, dir string, proto Protocol, prov turn.Provider, tools ...dispatch.Tool) *humanServer {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	newAgent := func(ctx context.Context, id string) (*conductor.Agent, error) {
		box, err := dispatch.NewToolBox(tools...)
		if err != nil {
			return nil, err
		}
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
		if err != nil {
			return nil, err
		}
		return reopenStored(ctx, st, a, id)
	}
	s := &humanServer{h: NewHandler(newAgent, HandlerOptions{Protocol: proto, ClientAnswers: true})}
	s.srv = httptest.NewServer(s.h)
	t.Cleanup(s.stop)
	return s
}

// stop shuts the server down as baton serve does on SIGTERM.
func (s *humanServer) stop() {
	s.srv.Close()
	s.h.Close()
}

type askResult struct {
	Messages []struct {
		ID         string `json:"id"`
		Role       string `json:"role"`
		Content    string `json:"content"`
		ToolCallID string `json:"toolCallId"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"toolCalls"`
	} `json:"messages"`
	Errors   []string        `json:"errors"`
	Question json.RawMessage `json:"question"`
}

func runNode(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstderr:\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

func askLines(res askResult) []string {
	var out []string
	for _, m := range res.Messages {
		line := m.Role + ": " + m.Content
		for _, c := range m.ToolCalls {
			line += " call " + c.ID + " " + c.Function.Name + " " + c.Function.Arguments
		}
		if m.ToolCallID != "" {
			line += " (answers " + m.ToolCallID + ")"
		}
		out = append(out, line)
	}
	return out
}

// TestAGUIClientAnswersAQuestion: the official AG-UI client sees the
// question as a tool call at the end of a finished run, answers it with a
// tool message and runs the agent again, which resumes the baton run.
func TestAGUIClientAnswersAQuestion(t *testing.T) {
	dir := aguiClientDir(t)
	s := startHumanServer(t, t.TempDir(), ProtocolAGUI)
	var res askResult
	if err := json.Unmarshal(runNode(t, dir, nil, "ask.mjs", s.srv.URL, "trip-1", "Bergen"), &res); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"user: plan a trip",
		`assistant: One question first. call q1 ask_human {"question":"Which city?","choices":["Oslo","Bergen"]}`,
		"tool: Bergen (answers q1)",
		"assistant: Going to Bergen.",
	}
	if diff := cmp.Diff(want, askLines(res)); diff != "" || len(res.Errors) > 0 {
		t.Errorf("client messages mismatch (-want +got):\n%s\nerrors: %v", diff, res.Errors)
	}
}

// TestAGUIAnswerAfterRestart: the question is asked, the server shuts
// down, a new one over the same store picks the run up, and a fresh
// client's answer resumes it.
func TestAGUIAnswerAfterRestart(t *testing.T) {
	dir := aguiClientDir(t)
	data := t.TempDir()
	first := startHumanServer(t, data, ProtocolAGUI)
	var asked askResult
	if err := json.Unmarshal(runNode(t, dir, nil, "ask.mjs", first.srv.URL, "trip-2", "", "ask"), &asked); err != nil {
		t.Fatal(err)
	}
	first.stop()
	second := startHumanServer(t, data, ProtocolAGUI)
	var res askResult
	if err := json.Unmarshal(runNode(t, dir, []string{"QUESTION=" + string(asked.Question)}, "ask.mjs", second.srv.URL, "trip-2", "Oslo", "answer"), &res); err != nil {
		t.Fatal(err)
	}
	lines := askLines(res)
	if len(lines) == 0 || lines[len(lines)-1] != "assistant: Going to Oslo." || len(res.Errors) > 0 {
		t.Errorf("after the restart the client got %q, errors %v", lines, res.Errors)
	}
}

// TestAISDKClientAnswersAQuestion: the AI SDK's Chat sees the question as
// a tool part waiting for input; addToolOutput answers it and the chat
// sends it back, which resumes the run into the same message.
func TestAISDKClientAnswersAQuestion(t *testing.T) {
	dir := aiSDKDir(t)
	data := t.TempDir()
	s := startHumanServer(t, data, ProtocolAISDK)
	var res struct {
		uiClientResult
		Asked struct {
			State string          `json:"state"`
			Input json.RawMessage `json:"input"`
		} `json:"asked"`
	}
	if err := json.Unmarshal(runNode(t, dir, nil, "ui.mjs", s.srv.URL, "trip-3", "ask", "Bergen"), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("client saw errors: %v", res.Errors)
	}
	if res.Asked.State != "input-available" || !strings.Contains(string(res.Asked.Input), "Which city?") {
		t.Errorf("the question's part was %s with input %s", res.Asked.State, res.Asked.Input)
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
	want := []string{"text One question first.", `tool-ask_human q1 output-available "Bergen"`, "text Going to Bergen."}
	if diff := cmp.Diff(want, parts); diff != "" {
		t.Errorf("message parts mismatch (-want +got):\n%s", diff)
	}
}

// TestAISDKClientAnswersAnApproval: a call that needs approval is a tool
// part in approval-requested; addToolApprovalResponse approves it, the
// chat sends the message back, and the tool runs; denied, the part ends
// in output-denied, the state the client's approval flow expects.
func TestAISDKClientAnswersAnApproval(t *testing.T) {
	dir := aiSDKDir(t)
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(_ context.Context, in struct {
		Path string `json:"path"`
	}) (string, error) {
		return "deleted " + in.Path, nil
	}, dispatch.NeedsApproval())
	for _, tt := range []struct{ answer, state, text string }{
		{"yes", "output-available", "Result: deleted build"},
		{"no", "output-denied", "Result: error: the user denied this call"},
	} {
		t.Run(tt.answer, func(t *testing.T) {
			s := startHumanServerWith(t, t.TempDir(), ProtocolAISDK, deleter{}, del)
			var res struct {
				uiClientResult
				Asked struct {
					State    string `json:"state"`
					Approval struct {
						ID string `json:"id"`
					} `json:"approval"`
				} `json:"asked"`
			}
			if err := json.Unmarshal(runNode(t, dir, nil, "ui.mjs", s.srv.URL, "clean-"+tt.answer, "approve", tt.answer), &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) > 0 {
				t.Fatalf("client saw errors: %v", res.Errors)
			}
			if res.Asked.State != "approval-requested" || res.Asked.Approval.ID != "d1" {
				t.Errorf("the call's part was %s with approval %q", res.Asked.State, res.Asked.Approval.ID)
			}
			var parts []string
			for _, p := range res.Message.Parts {
				switch {
				case p.Type == "text":
					parts = append(parts, "text "+p.Text)
				case strings.HasPrefix(p.Type, "tool-"):
					parts = append(parts, p.Type+" "+p.ToolCallID+" "+p.State)
				}
			}
			want := []string{"tool-delete_file d1 " + tt.state, "text " + tt.text}
			if diff := cmp.Diff(want, parts); diff != "" {
				t.Errorf("message parts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// reopenStored has a go on with its session id where the store holds it,
// waiting for what it waited for, as baton serve's agents do; a is closed
// when that fails.
func reopenStored(ctx context.Context, st store.Store, a *conductor.Agent, id string) (*conductor.Agent, error) {
	_, err := st.Head(ctx, id)
	if err == nil {
		_, err = a.Reopen(ctx, id)
	} else if errors.Is(err, store.ErrNotFound) {
		err = nil
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}
