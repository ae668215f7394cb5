package wire

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// heldSubmit holds its first Submit until gate closes, saying on arrived
// that it waits: the thread's run is claimed and has not started yet, as
// when its runner does work of its own first.
type heldSubmit struct {
	Runner
	first   *atomic.Bool
	arrived chan<- struct{}
	gate    <-chan struct{}
}

func (r heldSubmit) Submit(ctx context.Context, input []contract.Turn) (contract.RunSnapshot, error) {
	if r.first.CompareAndSwap(true, false) {
		r.arrived <- struct{}{}
		<-r.gate
	}
	return r.Runner.Submit(ctx, input)
}

// TestAISDKResumeWaitsForAClaimedRun: the AI SDK's resume request for a
// thread whose run a post has claimed but not started yet waits for the
// run to start and replays it, so that the official client rebuilds the
// whole reply. It was answered 204, nothing to resume, and the client
// never saw the run.
func TestAISDKResumeWaitsForAClaimedRun(t *testing.T) {
	dir := aiSDKDir(t)
	var first atomic.Bool
	first.Store(true)
	arrived, gate := make(chan struct{}), make(chan struct{})
	e := newEnvWith(t, envOptions{scripts: weatherScript, wrap: func(r Runner) Runner {
		return heldSubmit{Runner: r, first: &first, arrived: arrived, gate: gate}
	}})
	// Registered after the server's: should the test stop early, the held
	// run is let go before the handler waits for it.
	var open sync.Once
	release := func() { open.Do(func() { close(gate) }) }
	t.Cleanup(release)
	url := e.srv.URL + "/api/chat?protocol=ai-sdk"
	posted := postLater(url, chatBody("chat-held", "weather in Paris?"))
	<-arrived
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// The run starts once the resume request holds the thread too.
		for e.users("chat-held") < 2 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Millisecond):
			}
		}
		release()
	}()
	res := uiClient(t, dir, url, "chat-held", "resume")
	if a := <-posted; a.err != nil || a.code != http.StatusOK {
		t.Fatalf("post: %d %v:\n%s", a.code, a.err, a.body)
	}
	want := historyLines(e.agent("chat-held").Snapshot().History)
	if diff := cmp.Diff(want, uiLines(t, "weather in Paris?", res)); diff != "" {
		t.Errorf("resumed client message mismatch (-want +got):\n%s", diff)
	}
}

// chainStartHeld is steerHeld whose Submit of the message text holds
// until hold closes, saying on started that it waits: the run the
// message starts is claimed and has not started yet.
type chainStartHeld struct {
	steerHeld
	text    string
	started chan<- struct{}
	hold    <-chan struct{}
}

func (r chainStartHeld) Submit(ctx context.Context, input []contract.Turn) (contract.RunSnapshot, error) {
	for _, turn := range input {
		if turn.Text() == r.text {
			r.started <- struct{}{}
			<-r.hold
		}
	}
	return r.steerHeld.Submit(ctx, input)
}

// TestAISDKResumeWaitsForTheChainsNextRun: a post whose decision lets
// its run end before its message can steer it goes on, in its stream,
// with the run its message starts; the AI SDK's resume request that
// comes between the two, the next run claimed and not started yet,
// waits for that run and replays it, so that the official client
// rebuilds the reply to its message. It was answered 204, nothing to
// resume.
func TestAISDKResumeWaitsForTheChainsNextRun(t *testing.T) {
	dir := aiSDKDir(t)
	arrived, gate := make(chan struct{}), make(chan struct{})
	started, hold := make(chan struct{}), make(chan struct{})
	s := cutStreams(t, startRunnerFlowServer(t, t.TempDir(), ProtocolAISDK, contract.AgentConfig{}, byHistory(cleaner), nil, func(a *conductor.Agent) Runner {
		return chainStartHeld{steerHeld{agentRunner{a}, &sync.Once{}, arrived, gate}, "and tidy up", started, hold}
	}, deleteTool()))
	// Registered after the server's: should the test stop early, the
	// held steer and run are let go before the handler waits for them.
	var openGate, openHold sync.Once
	release := func() { openGate.Do(func() { close(gate) }) }
	letStart := func() { openHold.Do(func() { close(hold) }) }
	t.Cleanup(func() { release(); letStart() })

	first, steer := ownApprovalBodies(ProtocolAISDK)
	wantApprovalRequest(t, "first stream", s.srv.URL, first, "d1")
	th, returned := threadReturned(s.h, "c1")
	answer := postLater(s.srv.URL, steer)
	<-arrived
	// The decision was applied: the run goes on to its end and returns
	// before the message's steer reaches it; the message then starts the
	// next run, held before it starts.
	<-returned
	release()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// The run starts once the resume request holds the thread too.
		for {
			s.h.mu.Lock()
			users := th.users
			s.h.mu.Unlock()
			if users >= 2 {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Millisecond):
			}
		}
		letStart()
	}()
	res := uiClient(t, dir, s.srv.URL+"/api/chat", "c1", "resume")
	letStart()
	answerOK(t, "post", answer)
	var got []string
	for _, p := range res.Message.Parts {
		switch {
		case p.Type == "text":
			got = append(got, "text: "+p.Text)
		case strings.HasPrefix(p.Type, "tool-"):
			got = append(got, "tool "+p.ToolCallID+" "+p.State)
		}
	}
	if diff := cmp.Diff([]string{"text: Deleting.", "tool d2 approval-requested"}, got); diff != "" {
		t.Errorf("resumed client message mismatch (-want +got):\n%s", diff)
	}
	if run := th.r.Snapshot().RunID; res.Message.ID != run {
		t.Errorf("resumed client message %q, want the next run's, %q", res.Message.ID, run)
	}
}
