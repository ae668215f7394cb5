package wire

import (
	"context"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
	"io"
	"slices"
	"time"

	"encoding/json"
	"github.com/batonrt/baton/turn"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
)

// delegatedApprovalBodies are the bodies a client of proto posts on
// thread x1: the message that starts the run, and its decision (yes or
// no) on the delegate's approval request call_d/d1.
func delegatedApprovalBodies(proto Protocol, approved bool) (first, answer string) {
	if proto == ProtocolAISDK {
		b, _ := json.Marshal(map[string]any{"id": "x1", "trigger": "submit-message", "messages": []any{
			map[string]any{"id": "u1", "role": "user", "parts": []any{map[string]any{"type": "text", "text": "clean up"}}},
			map[string]any{"id": "a1", "role": "assistant", "parts": []any{
				map[string]any{"type": "step-start"},
				map[string]any{"type": "tool-delegate_cleaner", "toolCallId": "call_d", "state": "input-available", "input": map[string]any{"task": "clean"}},
				map[string]any{"type": "step-start"},
				map[string]any{"type": "tool-delete_file", "toolCallId": "call_d/d1", "state": "approval-responded", "input": map[string]any{"path": "build"},
					"approval": map[string]any{"id": "call_d/d1", "approved": approved}},
			}},
		}})
		return chatBody("x1", "clean up"), string(b)
	}
	text := "no"
	if approved {
		text = "yes"
	}
	user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
	return aguiBody("x1", []map[string]any{user}), aguiBody("x1", []map[string]any{user, {"id": "a1", "role": "tool", "toolCallId": "call_d/d1", "content": text}})
}

// TestDelegatedApprovalAfterARestart: a server stopped while a
// delegated run's approval request waits; a new server over the same
// store shows it to a client that comes afresh and takes the client's
// decision on it, and the run goes on to its end.
func TestDelegatedApprovalAfterARestart(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			dir := t.TempDir()
			first, answer := delegatedApprovalBodies(proto, true)
			s := cleanerServer(t, dir, proto, delegatingCleaner())
			if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "call_d/d1") {
				t.Fatalf("first stream: %d, want the delegate's approval request call_d/d1:\n%s", code, b)
			}
			s.stop()

			s = cleanerServer(t, dir, proto, delegatingCleaner()[2:])
			var code int
			var b string
			if proto == ProtocolAISDK {
				code, b = send(t, http.MethodGet, s.srv.URL+"/api/chat/x1/stream", "", "")
			} else {
				code, b = send(t, http.MethodPost, s.srv.URL, first, "0")
			}
			if code != http.StatusOK || !strings.Contains(b, "call_d/d1") {
				t.Fatalf("a new client's stream after the restart: %d, want call_d/d1 shown:\n%s", code, b)
			}
			if proto == ProtocolAISDK && !strings.Contains(b, `"tool-approval-request"`) {
				t.Errorf("the replayed stream has no tool-approval-request for call_d/d1:\n%s", b)
			}
			code, b = post(t, s.srv.URL, answer)
			if code != http.StatusOK || !strings.Contains(b, "Done.") {
				t.Fatalf("decision after the restart: %d, want the run to go on to its end:\n%s", code, b)
			}
		})
	}
}

// twiceDelegatingCleaner delegates to a child that deletes two files,
// one call after the other, each needing approval.
func twiceDelegatingCleaner() []func(context.Context) ([]turn.Chunk, error) {
	r := delegatingCleaner()
	second := reply(turn.Chunk{Kind: turn.ChunkToolCallStart, CallID: "d2", Name: "delete_file"}, turn.Chunk{Kind: turn.ChunkToolCallArgs, Text: `{"path":"dist"}`}, turn.Chunk{Kind: turn.ChunkToolCallEnd}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	return append(r[:2:2], append([]func(context.Context) ([]turn.Chunk, error){second}, r[2:]...)...)
}

// TestReplayDoesNotStopAtAnAnsweredDelegatedApproval: the delegate
// asks approval for d1, the client approves it, and the delegate asks
// approval for d2, where the stream stops. A client that comes to the
// thread again (the AI SDK's resume request, an AG-UI resume from the
// start) must be stopped at d2, the request that waits, not at d1,
// which it already answered: its stream ended at d1's request, replayed
// from the log, and d2's was never shown, so the run waited on a
// request no client could see.
func TestReplayDoesNotStopAtAnAnsweredDelegatedApproval(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			first, answer := delegatedApprovalBodies(proto, true)
			s := cleanerServer(t, t.TempDir(), proto, twiceDelegatingCleaner())
			if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "call_d/d1") {
				t.Fatalf("first stream: %d, want the delegate's approval request call_d/d1:\n%s", code, b)
			}
			if code, b := post(t, s.srv.URL, answer); code != http.StatusOK || !strings.Contains(b, "call_d/d2") {
				t.Fatalf("after approving d1: %d, want the delegate's approval request call_d/d2:\n%s", code, b)
			}
			var code int
			var b string
			if proto == ProtocolAISDK {
				code, b = send(t, http.MethodGet, s.srv.URL+"/api/chat/x1/stream", "", "")
			} else {
				code, b = send(t, http.MethodPost, s.srv.URL, first, "0")
			}
			if code != http.StatusOK {
				t.Fatalf("a new client's stream: %d:\n%s", code, b)
			}
			// The stream must end once, where the run waits: on d2.
			var types, approvals []string
			if proto == ProtocolAISDK {
				types, chunks := readUI(t, strings.NewReader(b))
				for _, c := range chunks {
					if c.Type == aisdk.ToolApprovalRequest {
						approvals = append(approvals, c.ToolCallID)
					}
				}
				if n := len(types); n < 2 || types[n-2] != aisdk.Finish || slices.Index(types, aisdk.Finish) != n-2 {
					t.Errorf("the replay does not end with its one finish: %q", types)
				}
			} else {
				for _, f := range readSSE(t, strings.NewReader(b)) {
					types = append(types, f.Event.Type)
					if f.Event.Type == agui.ToolCallStart {
						approvals = append(approvals, f.Event.ToolCallID)
					}
				}
				if i := slices.Index(types, agui.RunFinished); i != len(types)-1 {
					t.Errorf("the replay goes on after RUN_FINISHED (@ag-ui/client refuses it): %q", types)
				}
			}
			if !slices.Contains(approvals, "call_d/d2") {
				t.Errorf("the replay never shows call_d/d2, which the run waits on; calls %q", approvals)
			}
		})
	}
}

// TestAISDKResendsAnsweredDelegatedApprovals: the AI SDK sends every
// part of the message again with each request: approving d2 sends d1's
// decision along, which must be skipped.
func TestAISDKResendsAnsweredDelegatedApprovals(t *testing.T) {
	for _, approved := range []bool{true, false} {
		first, answer := delegatedApprovalBodies(ProtocolAISDK, approved)
		s := cleanerServer(t, t.TempDir(), ProtocolAISDK, twiceDelegatingCleaner())
		if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "call_d/d1") {
			t.Fatalf("first stream: %d:\n%s", code, b)
		}
		if code, b := post(t, s.srv.URL, answer); code != http.StatusOK || !strings.Contains(b, "call_d/d2") {
			t.Fatalf("after deciding d1: %d:\n%s", code, b)
		}
		both := strings.Replace(answer, `"type":"tool-delete_file"}]`, `"type":"tool-delete_file"},{"type":"step-start"},{"type":"tool-delete_file","toolCallId":"call_d/d2","state":"approval-responded","input":{"path":"dist"},"approval":{"id":"call_d/d2","approved":true}}]`, 1)
		if both == answer {
			t.Fatalf("could not add d2 to %s", answer)
		}
		if code, b := post(t, s.srv.URL, both); code != http.StatusOK || !strings.Contains(b, "Done.") {
			t.Errorf("approving d2 with d1 sent again (d1 approved %v): %d:\n%s", approved, code, b)
		}
		s.stop()
	}
}

// parallelDelegatingCleaner delegates to a child that deletes two files
// in one reply, both calls needing approval.
func parallelDelegatingCleaner() []func(context.Context) ([]turn.Chunk, error) {
	r := delegatingCleaner()
	both := reply(
		turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "d1", Name: "delete_file"}, turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"path":"build"}`}, turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
		turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 1, CallID: "d2", Name: "delete_file"}, turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 1, Text: `{"path":"dist"}`}, turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 1},
		turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	return append([]func(context.Context) ([]turn.Chunk, error){r[0], both}, r[2:]...)
}

// TestParallelDelegatedApprovalsAreAllShown: the delegate asks
// approval for two calls of one reply. The first stream stops at the
// first request; once the client decided it, the run still waits on the
// second, which the client must be shown and the stream must stop at.
// The answer's stream took the second request for one the client had,
// never showed it, and never ended; then it showed it at once, before
// the first call's result, which no stream showed.
func TestParallelDelegatedApprovalsAreAllShown(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			first, answer := delegatedApprovalBodies(proto, true)
			s := cleanerServer(t, t.TempDir(), proto, parallelDelegatingCleaner())
			code, b := post(t, s.srv.URL, first)
			if code != http.StatusOK || !strings.Contains(b, "call_d/d1") {
				t.Fatalf("first stream: %d, want call_d/d1:\n%s", code, b)
			}
			if strings.Contains(b, "call_d/d2") {
				return // both shown at once: the client can decide both
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.srv.URL, strings.NewReader(answer))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil || !strings.Contains(string(body), "call_d/d2") {
				t.Fatalf("after deciding d1 the stream (%v) never showed call_d/d2, on which the run waits:\n%s", err, body)
			}
			// d1's result comes after the answer: the stream that stops
			// at d2 shows it first, or no stream ever does.
			if r, d2 := strings.Index(string(body), "supprimé « build »"), strings.LastIndex(string(body), "call_d/d2"); r < 0 || r > d2 {
				t.Errorf("the answer's stream does not show d1's result before it stops at d2:\n%s", body)
			}
			// d2's decision carries d2's input, as an AI SDK client's does.
			d2 := strings.NewReplacer("call_d/d1", "call_d/d2", `"build"`, `"dist"`).Replace(answer)
			if code, b := post(t, s.srv.URL, d2); code != http.StatusOK || !strings.Contains(b, "Done.") {
				t.Errorf("after deciding d2: %d, want the run to go on to its end:\n%s", code, b)
			}
		})
	}
}
