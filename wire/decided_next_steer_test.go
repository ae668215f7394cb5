package wire

import (
	"context"
	"encoding/json"
	"net/http"
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

// decidedEnded is a thread c1 whose client decided its run's call and
// wrote a message in one post, answer, whose steer waits until release
// while the run the decision resumed (firstRun) has ended and another
// client's message has started the next run, which waits for the
// approval of its call d2.
type decidedEnded struct {
	s        *flowServer
	th       *thread
	firstRun string
	answer   <-chan postAnswer
	release  func()
}

// decidedRunEnded brings a thread of proto to decidedEnded.
func decidedRunEnded(t *testing.T, proto Protocol) decidedEnded {
	t.Helper()
	arrived := make(chan struct{})
	gate, release := heldGate(t)
	s := cutStreams(t, startRunnerFlowServer(t, t.TempDir(), proto, contract.AgentConfig{}, byHistory(cleaner), nil, steerMissedRunner(arrived, gate), deleteTool()))
	first, steer := ownApprovalBodies(proto)
	wantApprovalRequest(t, "first stream", s.srv.URL, first, "d1")
	th, returned := threadReturned(s.h, "c1")
	firstRun := th.r.Snapshot().RunID

	answer := postLater(s.srv.URL, steer)
	<-arrived
	<-returned
	wantApprovalRequest(t, "other client's stream", s.srv.URL, otherPostBody(proto), "d2")
	return decidedEnded{s: s, th: th, firstRun: firstRun, answer: answer, release: release}
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
			d := decidedRunEnded(t, proto)
			// The decision was applied: the run went on to its end and
			// returned, and another client's message started the next
			// run, which waits for the approval of its own call, before
			// the message's steer is refused.
			wantNextRunAwaiting(t, d.th, d.firstRun)
			d.release()
			a := answerOK(t, "post", d.answer)
			got := foldLines(t, proto, dir, a.body)
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
			wantSaidOnce(t, d.th, "and tidy up")
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
			d := decidedRunEnded(t, proto)
			// The decision was applied: the run went on to its end and
			// returned. Another client's message started the next run,
			// which waits for the approval of its own call, and that
			// client stops it, before the message's steer is refused.
			returned := nextReturned(d.s.h, d.th)
			if code, b := post(t, d.s.srv.URL+"/c1/abort", `{}`); code != http.StatusNoContent {
				t.Fatalf("other client's abort: %d %s", code, b)
			}
			<-returned
			d.release()
			a := answerOK(t, "post", d.answer)
			got := foldLines(t, proto, dir, a.body)
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
