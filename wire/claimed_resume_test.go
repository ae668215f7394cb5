package wire

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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
