package wire

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// deleter calls delete_file once, then reports the tool's result.
type deleter struct{}

func (deleter) Stream(_ context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		chunks := []turn.Chunk{
			{Kind: turn.ChunkToolCallStart, CallID: "d1", Name: "delete_file"},
			{Kind: turn.ChunkToolCallArgs, Text: `{"path":"build"}`},
			{Kind: turn.ChunkToolCallEnd},
			{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
		}
		last, _ := req.History.Last()
		if r := last.Results(); len(r) > 0 {
			chunks = []turn.Chunk{{Kind: turn.ChunkText, Text: "Result: " + r[0].Content}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
		}
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// postAGUI posts a RunAgentInput and returns the AG-UI events.
func postAGUI(t *testing.T, url string, messages ...map[string]any) (int, []agui.Event) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"threadId": "t1", "runId": "r", "messages": messages})
	resp, err := http.Post(url, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	var out []agui.Event
	for _, f := range readSSE(t, resp.Body) {
		out = append(out, f.Event)
	}
	return resp.StatusCode, out
}

// TestAGUIClientAnswersAnApproval: a call that needs approval ends the
// AG-UI run; a tool message with a decision approves it, and the baton run
// goes on in the next stream. A decision that is not one is refused, and
// so is an answer for a call nothing waits on.
func TestAGUIClientAnswersAnApproval(t *testing.T) {
	ran := make(chan string, 1)
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(_ context.Context, in struct {
		Path string `json:"path"`
	}) (string, error) {
		ran <- in.Path
		return "deleted " + in.Path, nil
	}, dispatch.NeedsApproval())
	_, srv := approvalServer(t, ProtocolAGUI, deleter{}, del)

	user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
	_, first := postAGUI(t, srv.URL, user)
	var kinds []string
	for _, ev := range first {
		kinds = append(kinds, string(ev.Type))
	}
	if n := len(kinds); n < 2 || kinds[n-1] != string(agui.RunFinished) || !strings.Contains(strings.Join(kinds, " "), string(agui.ToolCallStart)) {
		t.Fatalf("first stream %v, want the call and RUN_FINISHED where the run waits", kinds)
	}
	answer := func(content string) map[string]any {
		return map[string]any{"id": "t1", "role": "tool", "toolCallId": "d1", "content": content}
	}
	if code, _ := postAGUI(t, srv.URL, user, answer("maybe")); code != http.StatusBadRequest {
		t.Errorf("an answer that is no decision: %d, want 400", code)
	}
	_, second := postAGUI(t, srv.URL, user, answer(`{"approved":true,"scope":"session"}`))
	var text []string
	for _, ev := range second {
		if ev.Type == agui.TextMessageContent {
			text = append(text, ev.Delta)
		}
	}
	if diff := cmp.Diff([]string{"Result: deleted build"}, text); diff != "" {
		t.Errorf("second stream text mismatch (-want +got):\n%s", diff)
	}
	if got := <-ran; got != "build" {
		t.Errorf("the tool ran on %q", got)
	}
	if code, _ := postAGUI(t, srv.URL, user, answer("yes")); code != http.StatusConflict {
		t.Errorf("answering after the run ended: %d, want 409", code)
	}
}

func TestDecision(t *testing.T) {
	tests := []struct {
		text string
		want conductor.Decision
		bad  bool
	}{
		{"yes", conductor.Decision{Approved: true, Scope: contract.ScopeOnce}, false},
		{" Always ", conductor.Decision{Approved: true, Scope: contract.ScopeSession}, false},
		{"no", conductor.Decision{Reason: "the user said no"}, false},
		{`{"approved":false,"reason":"not now"}`, conductor.Decision{Reason: "not now"}, false},
		{`{"approved":true,"scope":"session"}`, conductor.Decision{Approved: true, Scope: contract.ScopeSession}, false},
		{`{"approved":true,"scope":"forever"}`, conductor.Decision{}, true},
		{`{"scope":"session"}`, conductor.Decision{}, true},
		{"perhaps", conductor.Decision{}, true},
	}
	for _, tt := range tests {
		got, err := decision(tt.text)
		if (err != nil) != tt.bad {
			t.Errorf("decision(%q) error %v, want error %v", tt.text, err, tt.bad)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("decision(%q) mismatch (-want +got):\n%s", tt.text, diff)
		}
	}
}

// approvalServer serves agents played by prov with the one tool, whose
// approvals wait for the client, over a memory store.
func approvalServer(t *testing.T, proto Protocol, prov turn.Provider, tool dispatch.Tool) (*Handler, *httptest.Server) {
	t.Helper()
	st := store.NewMemory()
	h := NewHandler(func(ctx context.Context, id string) (*conductor.Agent, error) {
		box, err := dispatch.NewToolBox(tool)
		if err != nil {
			return nil, err
		}
		return conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
	}, HandlerOptions{ClientAnswers: true, Protocol: proto})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, srv
}
