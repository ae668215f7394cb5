package wire

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// childApprovalBodies are the bodies a client of proto posts on thread
// x1 while the delegate's call_d/d1 waits for approval: a message that
// steers (carrying the decision when decide is set), and the decision on
// its own, posted after the steer.
func childApprovalBodies(proto Protocol, decide bool) (steer, decision string) {
	if proto == ProtocolAISDK {
		d1 := func(state string, approval map[string]any) map[string]any {
			return map[string]any{"type": "tool-delete_file", "toolCallId": "call_d/d1", "state": state, "input": map[string]any{"path": "build"}, "approval": approval}
		}
		asked := []any{
			map[string]any{"type": "step-start"},
			map[string]any{"type": "tool-delegate_cleaner", "toolCallId": "call_d", "state": "input-available", "input": map[string]any{"task": "clean"}},
			map[string]any{"type": "step-start"},
			d1("approval-requested", map[string]any{"id": "call_d/d1"}),
		}
		approved := append(append([]any(nil), asked[:3]...), d1("approval-responded", map[string]any{"id": "call_d/d1", "approved": true}))
		user := func(id, text string) map[string]any {
			return map[string]any{"id": id, "role": "user", "parts": []any{map[string]any{"type": "text", "text": text}}}
		}
		first := asked
		if decide {
			first = approved
		}
		s, _ := json.Marshal(map[string]any{"id": "x1", "trigger": "submit-message", "messages": []any{
			user("u1", "clean up"), map[string]any{"id": "a1", "role": "assistant", "parts": first}, user("u2", "and tidy up"),
		}})
		d, _ := json.Marshal(map[string]any{"id": "x1", "trigger": "submit-message", "messages": []any{
			user("u1", "clean up"), map[string]any{"id": "a1", "role": "assistant", "parts": asked}, user("u2", "and tidy up"),
			map[string]any{"id": "a2", "role": "assistant", "parts": approved},
		}})
		return string(s), string(d)
	}
	user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
	u2 := map[string]any{"id": "u2", "role": "user", "content": "and tidy up"}
	yes := map[string]any{"id": "t1", "role": "tool", "toolCallId": "call_d/d1", "content": "yes"}
	if decide {
		return aguiBody("x1", []map[string]any{user, yes, u2}), ""
	}
	return aguiBody("x1", []map[string]any{user, u2}), aguiBody("x1", []map[string]any{user, u2, yes})
}

// childWaitsForApproval serves the delegating cleaner and starts its run
// on thread x1, which waits on the delegate's call_d/d1 for approval. A
// stream that never ends is cut.
func childWaitsForApproval(t *testing.T, proto Protocol) *flowServer {
	t.Helper()
	return childWaitsForApprovalOn(t, proto, delegatingCleanerServer(t, proto))
}

// childWaitsForApprovalOn is childWaitsForApproval on s, which serves
// delegatingCleaner's replies.
func childWaitsForApprovalOn(t *testing.T, proto Protocol, s *flowServer) *flowServer {
	t.Helper()
	first, _ := delegatedApprovalBodies(proto, true)
	if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "call_d/d1") {
		t.Fatalf("first stream: %d, want the delegate's approval request call_d/d1:\n%s", code, b)
	}
	return s
}

// TestSteerWhileAChildWaitsForApproval: the client posts a message while
// the delegate's call waits for approval. The message steers the parent
// run, which still waits on the child's request: the steer's stream shows
// that request again and stops there, for the client to decide through
// the parent's thread, and the run then goes on to its end. The stream
// stayed open for ever, showing nothing the client could answer.
func TestSteerWhileAChildWaitsForApproval(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			s := childWaitsForApproval(t, proto)
			steer, decision := childApprovalBodies(proto, false)
			if code, b := post(t, s.srv.URL, steer); code != http.StatusOK || !strings.Contains(b, "call_d/d1") {
				t.Fatalf("steer: %d, want the stream to show call_d/d1 again and stop:\n%s", code, b)
			}
			if code, b := post(t, s.srv.URL, decision); code != http.StatusOK || !strings.Contains(b, "Done.") {
				t.Fatalf("decision after the steer: %d, want the run to go on to its end:\n%s", code, b)
			}
		})
	}
}

// steerTaken is an agent's runner that closes its signal's channel once
// it has taken a message as steering.
type steerTaken struct {
	agentRunner
	steerSignal
}

func (s steerTaken) Steer(ctx context.Context, input []contract.Turn) error {
	return s.took(s.agentRunner.Steer(ctx, input))
}

// TestSteerCarriesAChildsApproval: the client decides the delegate's
// request and writes a message in one post (AG-UI: the tool message
// before the user's; AI SDK: the approval response in the assistant
// message before the user's). The decision is applied and the message
// steers: the child goes on, and the run to its end. The decision was
// dropped, and the stream stayed open on a request already decided.
//
// The handler applies the decision before it steers, so the child may
// go on at once; its report is held until the run has taken the
// message, which the parent's next model call then carries. Unheld, the
// child and the parent's "Done." call could start before the steer
// landed, and the run rightly called its model once more for it, past
// the script's end.
func TestSteerCarriesAChildsApproval(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			taken := make(chan struct{})
			var once sync.Once
			replies := delegatingCleaner()
			replies[2] = gated(taken, replies[2])
			s := cutStreams(t, cleanerRunnerServer(t, t.TempDir(), proto, replies, func(a *conductor.Agent) Runner {
				return steerTaken{agentRunner{a}, steerSignal{taken, &once}}
			}))
			childWaitsForApprovalOn(t, proto, s)
			steer, _ := childApprovalBodies(proto, true)
			code, b := post(t, s.srv.URL, steer)
			if code != http.StatusOK || !strings.Contains(b, "supprimé « build »") || !strings.Contains(b, "Done.") {
				t.Fatalf("steer with the decision: %d, want the child's call run and the run to go on to its end:\n%s", code, b)
			}
			s.h.mu.Lock()
			th := s.h.threads["x1"]
			s.h.mu.Unlock()
			snap := th.r.Snapshot()
			var said []string
			for _, turn := range snap.History.Turns() {
				if turn.Role == contract.RoleUser {
					said = append(said, turn.Text())
				}
			}
			if diff := cmp.Diff([]string{"clean up", "and tidy up"}, said); diff != "" {
				t.Errorf("user turns mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
