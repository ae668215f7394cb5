package wire

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
)

// slowStartRunner holds its first Submit until gate closes, saying on
// arrived that it waits: a runner that does work of its own before the
// run starts (baton serve lists its MCP servers' tools).
type slowStartRunner struct {
	steerHumanRunner
	first   *atomic.Bool
	arrived chan<- struct{}
	gate    <-chan struct{}
}

func (r slowStartRunner) Submit(ctx context.Context, input []contract.Turn) (contract.RunSnapshot, error) {
	if r.first.CompareAndSwap(true, false) {
		r.arrived <- struct{}{}
		<-r.gate
	}
	return r.steerHumanRunner.Submit(ctx, input)
}

// postAnswer is what postLater's request came to.
type postAnswer struct {
	code   int
	body   string
	err    error
	header http.Header
}

// postLater posts an AG-UI body to url in the background, giving up
// after 10s, and sends what came of it on the channel it returns.
func postLater(url, body string) <-chan postAnswer {
	return postLaterAccepting(url, body, "")
}

// postLaterAccepting is postLater asking for the stream type accept,
// when not "".
func postLaterAccepting(url, body, accept string) <-chan postAnswer {
	out := make(chan postAnswer, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- postAnswer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		out <- postAnswer{resp.StatusCode, string(b), err, resp.Header}
	}()
	return out
}

// TestAMessagePostedWhileARunStartsSteersIt: a second message posted
// while the thread's first run is claimed but not started yet steers that
// run once it starts, as one posted a moment later does. It waited
// instead for the whole run to return, which a run waiting for the
// client's approval never does: the second post hung.
func TestAMessagePostedWhileARunStartsSteersIt(t *testing.T) {
	var first atomic.Bool
	first.Store(true)
	arrived, gate := make(chan struct{}), make(chan struct{})
	h, srv := approvingSteerServer(t, nil, func(r steerHumanRunner) Runner { return slowStartRunner{r, &first, arrived, gate} })
	post := func(body string) <-chan postAnswer { return postLater(srv.URL, body) }
	msg := func(id, text string) map[string]any { return map[string]any{"id": id, "role": "user", "content": text} }
	one := post(aguiBody("t1", []map[string]any{msg("m1", "clean up")}))
	<-arrived
	two := post(aguiBody("t1", []map[string]any{msg("m1", "clean up"), msg("m2", "keep the build")}))
	// Only makes the second post likely to arrive before the run starts;
	// it must steer the run whenever it arrives.
	h.mu.Lock()
	th := h.threads["t1"]
	h.mu.Unlock()
	waitFor(t, func() bool { h.mu.Lock(); defer h.mu.Unlock(); return th.users == 2 })
	time.Sleep(20 * time.Millisecond)
	close(gate)
	if a := <-one; a.err != nil || a.code != http.StatusOK {
		t.Fatalf("first post: %d %v", a.code, a.err)
	}
	a := <-two
	if a.err != nil || a.code != http.StatusOK || !strings.Contains(a.body, "Understood: keep the build") {
		t.Fatalf("second post: %d %v, want 200 with the steered reply:\n%s", a.code, a.err, a.body)
	}
}

// TestARunThatStartsAfterTheSteerLookedIsSteered: a message whose steer
// found no run in flight, the thread being claimed by a post whose run
// was about to start, and which then finds that run in flight, steers it.
// It was refused with 409, as if another run were in flight, when the run
// started between the two looks.
func TestARunThatStartsAfterTheSteerLookedIsSteered(t *testing.T) {
	h, srv := approvingSteerServer(t, nil, func(r steerHumanRunner) Runner { return r })
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(aguiBody("t1", []map[string]any{{"id": "m1", "role": "user", "content": "clean up"}})))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	h.mu.Lock()
	th := h.threads["t1"]
	h.mu.Unlock()
	// The claimed run waits for the client's approval: in flight.
	waitFor(t, func() bool { return th.r.Snapshot().Phase == contract.PhaseAwaitingApproval })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if got := h.claimWhenReturned(ctx, th, ""); got != claimStarted {
		t.Errorf("claimWhenReturned = %d, want claimStarted (%d): the claimed run has started and may be steered", got, claimStarted)
	}
	// Once the runner refused a steer as its run had ended, a snapshot
	// still showing that run in flight must not send the message back to
	// steer it again: the claim waits for the run to return, here until
	// its context ends.
	gone, cancelGone := context.WithCancel(ctx)
	cancelGone()
	if got := h.claimWhenReturned(gone, th, th.r.Snapshot().RunID); got != claimRefused {
		t.Errorf("claimWhenReturned after a refused steer = %d, want claimRefused (%d) once its context ended", got, claimRefused)
	}
}
