package wire

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestAISDKStaleApprovalIsRefused: two clients show a run's first call,
// call_0, waiting for approval; one approves it, and the run asks again
// under call_0 for another input in its next reply. The other client's
// approval, posted after, is for the first call, as its part's input
// says: it is refused (409), and the second call still waits, rather
// than approved by a click on a call its user never saw.
func TestAISDKStaleApprovalIsRefused(t *testing.T) {
	del := &ranTool{}
	s := startFlowServer(t, t.TempDir(), ProtocolAISDK, contract.AgentConfig{}, deletesUnderOneID(), nil, del.tool())
	if code, b := post(t, s.srv.URL, chatBody("x1", "clean up")); code != http.StatusOK || !strings.Contains(b, "tool-approval-request") {
		t.Fatalf("first stream: %d, want the first call asked:\n%s", code, b)
	}
	b, _ := json.Marshal(map[string]any{"id": "x1", "trigger": "submit-message", "messages": []any{
		map[string]any{"id": "u1", "role": "user", "parts": []any{map[string]any{"type": "text", "text": "clean up"}}},
		map[string]any{"id": "a1", "role": "assistant", "parts": []any{
			map[string]any{"type": "step-start"},
			map[string]any{"type": "tool-delete_file", "toolCallId": "call_0", "state": "approval-responded", "input": map[string]any{"path": "a"},
				"approval": map[string]any{"id": "call_0", "approved": true}},
		}},
	}})
	approveA := string(b)
	if code, b := post(t, s.srv.URL, approveA); code != http.StatusOK || !strings.Contains(b, "deleted a") || !strings.Contains(b, "tool-approval-request") {
		t.Fatalf("first client's decision: %d, want a deleted and the second call asked:\n%s", code, b)
	}
	if code, b := post(t, s.srv.URL, approveA); code != http.StatusConflict {
		t.Errorf("second client's decision on the first call: %d, want 409:\n%s", code, b)
	}
	if diff := cmp.Diff([]string{"a"}, del.paths()); diff != "" {
		t.Errorf("files deleted mismatch (-want +got):\n%s", diff)
	}
}
