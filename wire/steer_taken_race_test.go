package wire

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// steerSlow is an agent's runner whose first Steer, once the run took
// the input, says so on took and waits for gate before it returns: the
// test lets the run end, and the next start, in between.
type steerSlow struct {
	agentRunner
	once *sync.Once
	took chan<- struct{}
	gate <-chan struct{}
}

func (r steerSlow) Steer(ctx context.Context, input []contract.Turn) error {
	err := r.agentRunner.Steer(ctx, input)
	if err == nil {
		r.once.Do(func() {
			r.took <- struct{}{}
			<-r.gate
		})
	}
	return err
}

// tidier is cleaner, except that it answers "and tidy up" and ends.
func tidier(h contract.History) []turn.Chunk {
	if last, _ := h.Last(); last.Text() == "and tidy up" {
		return []turn.Chunk{{Kind: turn.ChunkText, Text: "Tidied."}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	}
	return cleaner(h)
}

// TestASteeredRunThatEndsBeforeTheSteerReturnsIsShown: a message steers
// the run in flight, which takes it, answers it and ends, and another
// client's message starts the next run, all before the steer returns.
// The message's stream carries the steered run's rest, its reply to the
// message included, then the next run. It took the next run, in flight
// when the steer returned, for the one that took the message, and hid
// the steered run's rest as a run the client had nothing to do with:
// the reply to the client's message was never shown to it.
func TestASteeredRunThatEndsBeforeTheSteerReturnsIsShown(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			dir := aiSDKDir(t)
			took := make(chan struct{})
			gate, release := heldGate(t)
			s := cutStreams(t, startRunnerFlowServer(t, t.TempDir(), proto, contract.AgentConfig{}, byHistory(tidier), nil, func(a *conductor.Agent) Runner {
				return steerSlow{agentRunner: agentRunner{a}, once: &sync.Once{}, took: took, gate: gate}
			}, deleteTool()))
			user := func(id, text string) string {
				if proto == ProtocolAISDK {
					return chatBody("c1", text)
				}
				return aguiBody("c1", []map[string]any{{"id": id, "role": "user", "content": text}})
			}
			wantApprovalRequest(t, "first stream", s.srv.URL, user("u1", "clean up"), "d1")
			th, returned := threadReturned(s.h, "c1")
			firstRun := th.r.Snapshot().RunID

			answer := postLater(s.srv.URL, user("u2", "and tidy up"))
			<-took
			// The run took the message, skips the call it waited on,
			// answers and ends; another client's message starts the next
			// run, which waits for the approval of its own call.
			<-returned
			if code, b := post(t, s.srv.URL, otherPostBody(proto)); code != http.StatusOK || !strings.Contains(b, "delete_file") {
				t.Fatalf("other client's stream: %d, want an approval request:\n%s", code, b)
			}
			wantNextRunAwaiting(t, th, firstRun)
			release()
			a := answerOK(t, "post", answer)
			got := foldLines(t, proto, dir, a.body)
			// The steered run's rest, its call skipped by the steer and
			// its reply, then the next run, to the call it waits on.
			want := []string{"tool d1: skipped: steered", "text: Tidied.", "text: Deleting.", "call d3"}
			if proto == ProtocolAISDK {
				want = []string{"tool d1 output-error: ", "text: Tidied.", "text: Deleting.", "tool d3 approval-requested: "}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("what the client rebuilt from the post's stream mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
