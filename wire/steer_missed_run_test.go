package wire

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// missingRunner, at its first Steer once armed, says so on arrived and
// waits for gate, then refuses that steer as the runner does when its
// run has ended.
type missingRunner struct {
	steerHumanRunner
	armed   *atomic.Bool
	arrived chan<- struct{}
	gate    <-chan struct{}
}

func (r missingRunner) Steer(ctx context.Context, input []contract.Turn) error {
	if r.armed.CompareAndSwap(true, false) {
		r.arrived <- struct{}{}
		<-r.gate
		return conductor.ErrNoRun
	}
	return r.steerHumanRunner.Steer(ctx, input)
}

// TestAMessageWhoseRunEndedSteersTheNextRun: a message posted while a
// run is in flight, whose steer the runner refuses as that run has just
// ended, and which then finds the next run, started by another post,
// in flight, steers that run and is kept once. It was refused with 409
// as if it had come while a run was in flight, though none was when its
// steer failed: posts to one thread at once lost messages that way.
func TestAMessageWhoseRunEndedSteersTheNextRun(t *testing.T) {
	var armed atomic.Bool
	arrived, gate := make(chan struct{}), make(chan struct{})
	// The model says on said what each of its calls is given, and waits
	// until the test hears it: a run is then in flight for sure.
	said := make(chan []string)
	h, srv := approvingSteerServer(t, said, func(r steerHumanRunner) Runner { return missingRunner{r, &armed, arrived, gate} })
	post := func(body string) <-chan postAnswer { return postLater(srv.URL, body) }
	msg := func(id, text string) map[string]any { return map[string]any{"id": id, "role": "user", "content": text} }

	first := post(aguiBody("t1", []map[string]any{msg("m1", "clean up")}))
	var th *thread
	waitFor(t, func() bool { h.mu.Lock(); defer h.mu.Unlock(); th = h.threads["t1"]; return th != nil })
	<-th.ready
	<-said
	// The first run waits for the client's approval: in flight.
	waitFor(t, func() bool { return th.r.Snapshot().Phase == contract.PhaseAwaitingApproval })
	firstRun := th.r.Snapshot().RunID

	armed.Store(true)
	second := post(aguiBody("t1", []map[string]any{msg("m1", "clean up"), msg("m2", "keep the build")}))
	<-arrived
	// Between the second post's look and its steer, the first run ends and
	// returns, and another post starts the next run.
	h.mu.Lock()
	returned := th.returned
	h.mu.Unlock()
	if err := th.r.(missingRunner).steerHumanRunner.(Aborter).Abort(t.Context(), contract.AbortNow); err != nil {
		t.Fatal(err)
	}
	<-returned
	third := post(aguiBody("t1", []map[string]any{msg("m3", "tidy the docs")}))
	// The next run's model call waits for the test to hear it: that run
	// stays in flight.
	waitFor(t, func() bool { s := th.r.Snapshot(); return s.RunID != firstRun && s.Phase.InFlight() })
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-said:
			case <-done:
				return
			}
		}
	}()
	close(gate)

	if a := <-second; a.err != nil || a.code != http.StatusOK || !strings.Contains(a.body, "Understood: keep the build") {
		t.Fatalf("second post: %d %v, want 200 with the steered reply:\n%s", a.code, a.err, a.body)
	}
	if a := <-first; a.err != nil || a.code != http.StatusOK {
		t.Fatalf("first post: %d %v", a.code, a.err)
	}
	if a := <-third; a.err != nil || a.code != http.StatusOK {
		t.Fatalf("third post: %d %v", a.code, a.err)
	}
	kept := 0
	for _, turn := range th.r.Snapshot().History.Turns() {
		if turn.Role == contract.RoleUser && turn.Text() == "keep the build" {
			kept++
		}
	}
	if kept != 1 {
		t.Errorf("the thread holds the steering message %d times, want once", kept)
	}
}
