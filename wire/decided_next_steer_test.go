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

// steerMissed is an agent's runner whose first Steer says so on arrived,
// waits for gate, and then refuses as the runner does when the run it
// came for has ended: the test ends that run, and starts the next, in
// between.
type steerMissed struct {
	agentRunner
	once    *sync.Once
	arrived chan<- struct{}
	gate    <-chan struct{}
}

func (r steerMissed) Steer(ctx context.Context, input []contract.Turn) error {
	missed := false
	r.once.Do(func() {
		r.arrived <- struct{}{}
		<-r.gate
		missed = true
	})
	if missed {
		return conductor.ErrNoRun
	}
	return r.agentRunner.Steer(ctx, input)
}

// otherPostBody is a message of another client of thread c1, which
// starts the next run.
func otherPostBody(proto Protocol) string {
	if proto == ProtocolAISDK {
		return chatBody("c1", "tidy the docs")
	}
	b, _ := json.Marshal(map[string]any{"threadId": "c1", "runId": "other", "messages": []any{
		map[string]any{"id": "u3", "role": "user", "content": "tidy the docs"},
	}})
	return string(b)
}

// TestADecisionWhoseRunEndedBeforeItsSteerOfTheNextRun: the client
// decides its run's call and writes a message in one post; the decision
// lets the run go on to its end before the message can steer it, and
// another client's post starts the next run, which the message then
// steers. The post's stream carries, once and in order, the rest of the
// run the decision resumed (the decided call's result and the run's
// reply) before the run the message steered. It showed only the steered
// run: the client never got the result of the call it approved nor the
// reply that followed.
func TestADecisionWhoseRunEndedBeforeItsSteerOfTheNextRun(t *testing.T) {
	const deleted = "supprimé « bûild-d1 » ✓ 東京"
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			dir := aiSDKDir(t)
			arrived, gate := make(chan struct{}), make(chan struct{})
			var open sync.Once
			release := func() { open.Do(func() { close(gate) }) }
			t.Cleanup(release)
			s := cutStreams(t, startRunnerFlowServer(t, t.TempDir(), proto, contract.AgentConfig{}, byHistory(cleaner), nil, func(a *conductor.Agent) Runner {
				return steerMissed{agentRunner: agentRunner{a}, once: &sync.Once{}, arrived: arrived, gate: gate}
			}, deleteTool()))
			first, steer := ownApprovalBodies(proto)
			if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "d1") {
				t.Fatalf("first stream: %d, want the approval request of d1:\n%s", code, b)
			}
			s.h.mu.Lock()
			th := s.h.threads["c1"]
			returned := th.returned
			s.h.mu.Unlock()
			firstRun := th.r.Snapshot().RunID

			answer := postLater(s.srv.URL, steer)
			<-arrived
			// The decision was applied: the run goes on to its end and
			// returns, and another client's message starts the next run,
			// which waits for the approval of its own call, before the
			// message's steer is refused.
			<-returned
			if code, b := post(t, s.srv.URL, otherPostBody(proto)); code != http.StatusOK || !strings.Contains(b, "d2") {
				t.Fatalf("other client's stream: %d, want the approval request of d2:\n%s", code, b)
			}
			if snap := th.r.Snapshot(); snap.RunID == firstRun || snap.Phase != contract.PhaseAwaitingApproval {
				t.Fatalf("the next run is %s in %s, want another than %s awaiting approval", snap.RunID, snap.Phase, firstRun)
			}
			release()
			a := <-answer
			if a.err != nil || a.code != http.StatusOK {
				t.Fatalf("post: %d %v:\n%s", a.code, a.err, a.body)
			}

			var got []string
			if proto == ProtocolAISDK {
				got = uiFoldLines(t, dir, a.body)
			} else {
				got = aguiFoldLines(t, a.body)
			}
			// The rest of the run the decision resumed, then the steered
			// run from its start: its call, skipped by the steer, and
			// the next call it waits on.
			want := []string{"tool d1: " + deleted, "text: Result: " + deleted, "text: Deleting.", "call d2", "tool d2: skipped: steered", "text: Deleting.", "call d3"}
			if proto == ProtocolAISDK {
				want = []string{"tool d1 output-available: " + deleted, "text: Result: " + deleted, "text: Deleting.", "tool d2 output-error: ", "text: Deleting.", "tool d3 approval-requested: "}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("what the client rebuilt from the post's stream mismatch (-want +got):\n%s", diff)
			}
			said := 0
			for _, turn := range th.r.Snapshot().History.Turns() {
				if turn.Role == contract.RoleUser && turn.Text() == "and tidy up" {
					said++
				}
			}
			if said != 1 {
				t.Errorf("the thread holds the message %d times, want once", said)
			}
		})
	}
}

// TestADecisionWhoseRunEndedBeforeAnotherRunStreamsItsOwnRun: the
// client decides its run's call and writes a message in one post; the
// decision lets the run go on to its end before the message can steer
// it, and another client's run starts and ends before the message's
// run can. The post's stream carries the rest of the run the decision
// resumed, then the run its message started, to where that waits, not
// the other client's run. It took the other client's run, started
// after the decided one, for the message's, and ended with it: the
// client never got the run its message started.
func TestADecisionWhoseRunEndedBeforeAnotherRunStreamsItsOwnRun(t *testing.T) {
	const deleted = "supprimé « bûild-d1 » ✓ 東京"
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			dir := aiSDKDir(t)
			arrived, gate := make(chan struct{}), make(chan struct{})
			var open sync.Once
			release := func() { open.Do(func() { close(gate) }) }
			t.Cleanup(release)
			s := cutStreams(t, startRunnerFlowServer(t, t.TempDir(), proto, contract.AgentConfig{}, byHistory(cleaner), nil, func(a *conductor.Agent) Runner {
				return steerMissed{agentRunner: agentRunner{a}, once: &sync.Once{}, arrived: arrived, gate: gate}
			}, deleteTool()))
			first, steer := ownApprovalBodies(proto)
			if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "d1") {
				t.Fatalf("first stream: %d, want the approval request of d1:\n%s", code, b)
			}
			s.h.mu.Lock()
			th := s.h.threads["c1"]
			returned := th.returned
			s.h.mu.Unlock()

			answer := postLater(s.srv.URL, steer)
			<-arrived
			// The decision was applied: the run goes on to its end and
			// returns. Another client's message starts the next run,
			// which waits for the approval of its own call, and that
			// client stops it, before the message's steer is refused.
			<-returned
			if code, b := post(t, s.srv.URL, otherPostBody(proto)); code != http.StatusOK || !strings.Contains(b, "d2") {
				t.Fatalf("other client's stream: %d, want the approval request of d2:\n%s", code, b)
			}
			s.h.mu.Lock()
			returned = th.returned
			s.h.mu.Unlock()
			if code, b := post(t, s.srv.URL+"/c1/abort", `{}`); code != http.StatusNoContent {
				t.Fatalf("other client's abort: %d %s", code, b)
			}
			<-returned
			release()
			a := <-answer
			if a.err != nil || a.code != http.StatusOK {
				t.Fatalf("post: %d %v:\n%s", a.code, a.err, a.body)
			}

			var got []string
			if proto == ProtocolAISDK {
				got = uiFoldLines(t, dir, a.body)
			} else {
				got = aguiFoldLines(t, a.body)
			}
			// The rest of the run the decision resumed, then the run the
			// message started, which waits for its call d3.
			want := []string{"tool d1: " + deleted, "text: Result: " + deleted, "text: Deleting.", "call d3"}
			if proto == ProtocolAISDK {
				want = []string{"tool d1 output-available: " + deleted, "text: Result: " + deleted, "text: Deleting.", "tool d3 approval-requested: "}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("what the client rebuilt from the post's stream mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
