package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/wire/aisdk"
)

// uiClientResult is what ui.mjs prints: the assistant message the AI SDK
// rebuilt from the stream.
type uiClientResult struct {
	Message struct {
		ID       string          `json:"id"`
		Role     string          `json:"role"`
		Metadata json.RawMessage `json:"metadata"`
		Parts    []struct {
			Type       string          `json:"type"`
			Text       string          `json:"text"`
			ToolCallID string          `json:"toolCallId"`
			State      string          `json:"state"`
			Input      json.RawMessage `json:"input"`
			Output     json.RawMessage `json:"output"`
		} `json:"parts"`
	} `json:"message"`
	Errors  []string `json:"errors"`
	Types   []string `json:"types"`
	Headers []string `json:"headers"`
}

// uiLines renders the rebuilt message as historyLines renders a history:
// per step, the assistant's text, its calls, then their outputs.
func uiLines(t *testing.T, user string, res uiClientResult) []string {
	t.Helper()
	out := []string{"user: " + user}
	var text string
	var calls, outputs []string
	flush := func() {
		if text == "" && len(calls) == 0 {
			return
		}
		out = append(append(append(out, "assistant: "+text), calls...), outputs...)
		text, calls, outputs = "", nil, nil
	}
	for _, p := range res.Message.Parts {
		switch {
		case p.Type == "step-start":
			flush()
		case p.Type == "text":
			text += p.Text
		case len(p.Type) > 5 && p.Type[:5] == "tool-":
			var input bytes.Buffer
			if err := json.Compact(&input, p.Input); err != nil {
				t.Fatalf("tool part input %q: %v", p.Input, err)
			}
			var output string
			if err := json.Unmarshal(p.Output, &output); err != nil {
				t.Fatalf("tool part output %q: %v", p.Output, err)
			}
			if p.State != "output-available" {
				t.Errorf("tool part %s is %s, want output-available", p.ToolCallID, p.State)
			}
			calls = append(calls, "  call "+p.ToolCallID+" "+p.Type[5:]+" "+input.String())
			outputs = append(outputs, "tool "+p.ToolCallID+": "+output)
		}
	}
	flush()
	return out
}

func uiClient(t *testing.T, dir, url, chat, mode string) uiClientResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "ui.mjs", url, chat, mode)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node ui.mjs %s: %v\nstderr:\n%s", mode, err, stderr.String())
	}
	var res uiClientResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("client output %q: %v\nstderr:\n%s", stdout.String(), err, stderr.String())
	}
	if len(res.Errors) > 0 {
		t.Fatalf("client saw errors: %v", res.Errors)
	}
	if diff := cmp.Diff([]string{aisdk.StreamVersion}, res.Headers); diff != "" {
		t.Errorf("%s header mismatch (-want +got):\n%s", aisdk.StreamHeader, diff)
	}
	return res
}

func aiSDKDir(t *testing.T) string {
	t.Helper()
	dir := aguiClientDir(t)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "ai")); err != nil {
		msg := "AI SDK client test needs `npm ci --prefix wire/testdata/agui-client`"
		if os.Getenv("CI") != "" {
			t.Fatalf("%s (CI is set, so this is a failure): %v", msg, err)
		}
		t.Skip(msg + "; skipped outside CI")
	}
	return dir
}

func TestAISDKClientRebuildsRun(t *testing.T) {
	dir := aiSDKDir(t)
	e := newEnv(t, weatherScript)
	res := uiClient(t, dir, e.srv.URL+"/api/chat?protocol=ai-sdk", "chat-full", "chat")
	snap := e.agent("chat-full").Snapshot()
	want := historyLines(snap.History)
	if diff := cmp.Diff(want, uiLines(t, "weather in Paris?", res)); diff != "" {
		t.Errorf("client message mismatch (-want +got):\n%s", diff)
	}
	if len(want) != 5 {
		t.Errorf("history has %d lines, want user, assistant, call, tool, assistant: %v", len(want), want)
	}
	if res.Message.Role != "assistant" || res.Message.ID != snap.RunID {
		t.Errorf("message %s %q, want assistant %q", res.Message.Role, res.Message.ID, snap.RunID)
	}
	var meta aisdk.Metadata
	if err := json.Unmarshal(res.Message.Metadata, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Phase != "settled" || meta.Usage == nil || meta.Usage.ModelCalls != 2 {
		t.Errorf("metadata %+v, want settled with usage of 2 model calls", meta)
	}
	for _, typ := range []string{aisdk.Start, aisdk.StartStep, aisdk.ReasoningDelta, aisdk.TextDelta, aisdk.ToolInputStart, aisdk.ToolInputDelta, aisdk.ToolInputAvailable, aisdk.ToolOutputAvail, aisdk.DataToolStarted, aisdk.FinishStep, aisdk.Finish} {
		if !slices.Contains(res.Types, typ) {
			t.Errorf("no %s chunk in %v", typ, res.Types)
		}
	}
}

func TestAISDKClientResumesRunInFlight(t *testing.T) {
	dir := aiSDKDir(t)
	e := newGatedEnv(t, weatherScript, make(chan struct{}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := e.postChat(ctx, `{"id":"chat-re","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"weather in Paris?"}]}]}`)
	defer resp.Body.Close()
	waitFor(t, func() bool { return e.agent("chat-re") != nil && e.agent("chat-re").Snapshot().Phase.InFlight() })
	go func() {
		// Let the tool finish once the resumed stream has subscribed.
		for e.users("chat-re") < 2 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Millisecond):
			}
		}
		close(e.toolGate)
	}()
	res := uiClient(t, dir, e.srv.URL+"/api/chat?protocol=ai-sdk", "chat-re", "resume")
	want := historyLines(e.agent("chat-re").Snapshot().History)
	if diff := cmp.Diff(want, uiLines(t, "weather in Paris?", res)); diff != "" {
		t.Errorf("resumed client message mismatch (-want +got):\n%s", diff)
	}
}

// postChat POSTs an AI SDK chat request.
func (e *env) postChat(ctx context.Context, body string) *http.Response {
	e.t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.srv.URL+"/api/chat?protocol=ai-sdk", strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp
}
