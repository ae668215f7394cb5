package wire

import (
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
)

// TestUnreadableDecisionAppliesNoAnswer: a request whose second decision
// cannot be read is refused with 400 before its first is applied; it
// used to approve call_1 and then refuse the request, the client none
// the wiser that a file was deleted.
func TestUnreadableDecisionAppliesNoAnswer(t *testing.T) {
	del := &ranTool{}
	s := startFlowServer(t, t.TempDir(), ProtocolAGUI, contract.AgentConfig{}, twoDeletes(), nil, del.tool())
	if code, b := post(t, s.srv.URL, aguiBody("x1", []map[string]any{{"id": "u1", "role": "user", "content": "clean up"}})); code != http.StatusOK {
		t.Fatalf("first stream: %d\n%s", code, b)
	}
	if code, b := post(t, s.srv.URL, decisionsBody(ProtocolAGUI, "yes", "perhaps")); code != http.StatusBadRequest {
		t.Fatalf("unreadable decision: %d, want 400:\n%s", code, b)
	}
	if code, b := post(t, s.srv.URL, decisionsBody(ProtocolAGUI, "no", "no")); code != http.StatusOK || !strings.Contains(b, "Done.") {
		t.Fatalf("decisions: %d, want the run to go on to its end:\n%s", code, b)
	}
	if got := del.paths(); len(got) != 0 {
		t.Errorf("deleted %q, though the request that approved it was refused", got)
	}
}
