package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

// clientMessage is a message as @ag-ui/client rebuilds it.
type clientMessage struct {
	Role       string `json:"role"`
	Content    string `json:"content,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"toolCalls,omitempty"`
}

type clientResult struct {
	Messages    []json.RawMessage `json:"messages"`
	Errors      []string          `json:"errors"`
	ResumedFrom string            `json:"resumedFrom"`
	// Snapshots counts the MESSAGES_SNAPSHOTs the client's streams held.
	Snapshots int `json:"snapshots"`
	// IDsBefore are the ids of the messages the client held when its
	// first stream ended.
	IDsBefore []string `json:"idsBefore"`
}

// comparable flattens messages to what both sides must agree on (ids of
// text messages are the projector's business, not the agent's).
func flatten(t *testing.T, raw []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, r := range raw {
		var m clientMessage
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		if m.Role == "reasoning" {
			continue
		}
		out = append(out, m.Role+": "+m.Content)
		for _, c := range m.ToolCalls {
			out = append(out, "  call "+c.ID+" "+c.Function.Name+" "+c.Function.Arguments)
		}
		if m.ToolCallID != "" {
			out[len(out)-1] = m.Role + " " + m.ToolCallID + ": " + m.Content
		}
	}
	return out
}

// historyLines renders the agent's history the same way.
func historyLines(h contract.History) []string {
	var out []string
	for _, turn := range h.Turns() {
		switch turn.Role {
		case contract.RoleTool:
			for _, r := range turn.Results() {
				out = append(out, "tool "+r.CallID+": "+r.Content)
			}
		default:
			out = append(out, string(turn.Role)+": "+turn.Text())
			for _, c := range turn.Calls() {
				out = append(out, "  call "+c.ID+" "+c.Name+" "+c.Arguments)
			}
		}
	}
	return out
}

func aguiClientDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "agui-client"))
	if err != nil {
		t.Fatal(err)
	}
	_, statErr := os.Stat(filepath.Join(dir, "node_modules", "@ag-ui", "client"))
	_, nodeErr := exec.LookPath("node")
	if statErr == nil && nodeErr == nil {
		return dir
	}
	msg := "AG-UI client test needs node and `npm ci --prefix wire/testdata/agui-client`"
	if os.Getenv("CI") != "" {
		t.Fatalf("%s (CI is set, so this is a failure): node: %v, node_modules: %v", msg, nodeErr, statErr)
	}
	t.Skip(msg + "; skipped outside CI")
	return ""
}

func runClient(t *testing.T, dir, url, thread, mode string) clientResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "run.mjs", url, thread, mode)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node run.mjs %s: %v\nstderr:\n%s", mode, err, stderr.String())
	}
	var res clientResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("client output %q: %v\nstderr:\n%s", stdout.String(), err, stderr.String())
	}
	if len(res.Errors) > 0 {
		t.Fatalf("client saw RUN_ERROR: %v", res.Errors)
	}
	return res
}

func TestAGUIClientRebuildsRun(t *testing.T) {
	dir := aguiClientDir(t)
	e := newEnv(t, weatherScript)
	res := runClient(t, dir, e.srv.URL, "thread-full", "full")
	want := historyLines(e.agent("thread-full").Snapshot().History)
	if diff := cmp.Diff(want, flatten(t, res.Messages)); diff != "" {
		t.Errorf("client messages mismatch (-want +got):\n%s", diff)
	}
	if len(want) != 5 {
		t.Errorf("history has %d lines, want user, assistant, call, tool, assistant: %v", len(want), want)
	}
}

// The official client, whose stream is dropped between turns or in the
// middle of the reasoning, the text or a tool call's arguments, opens a
// new run for the reconnect with Last-Event-ID; the resumed stream must
// pass its verifier and leave it with the agent's history.
func TestAGUIClientRebuildsRunAfterReconnect(t *testing.T) {
	dir := aguiClientDir(t)
	for _, mode := range []string{"reconnect", "reconnect-reasoning", "reconnect-text", "reconnect-args"} {
		t.Run(mode, func(t *testing.T) {
			e := newGatedEnv(t, weatherScript, make(chan struct{}))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				// Let the tool finish once the client has cut its first stream and
				// come back with Last-Event-ID. Counting live streams instead could
				// miss the cut when the reconnect overlaps the first stream's end.
				for e.resumes.Load() == 0 {
					select {
					case <-ctx.Done():
						return
					case <-time.After(time.Millisecond):
					}
				}
				close(e.toolGate)
			}()
			thread := "thread-" + mode
			res := runClient(t, dir, e.srv.URL, thread, mode)
			if res.ResumedFrom == "" {
				t.Fatal("client did not record a Last-Event-ID")
			}
			want := historyLines(e.agent(thread).Snapshot().History)
			if diff := cmp.Diff(want, flatten(t, res.Messages)); diff != "" {
				t.Errorf("client messages after reconnect from %s mismatch (-want +got):\n%s", res.ResumedFrom, diff)
			}
		})
	}
}
