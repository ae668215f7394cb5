package wire

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// startHeld holds, once held is set, its subscriptions' starts of the
// thread's own runs until release closes, as a busy machine's
// subscription may lag behind the run.
type startHeld struct {
	Runner
	held    *atomic.Bool
	release <-chan struct{}
}

func (r startHeld) Subscribe(fn func(contract.RunEvent)) func() {
	return r.Runner.Subscribe(holding(fn, r.release, func(ev contract.RunEvent) bool {
		return r.held.Load() && ev.Kind == contract.EvRunStarted && len(ev.Subflow) == 0
	}))
}

// laggingRun is thread chat-lag, of an env whose first run said "first
// reply" and ended, and whose second run, which second posted "again"
// for, is in flight and waits in its model call, while the thread's log
// still holds its start back: the log's subscription lags behind the
// store. letGo lets the log catch up and the run say "second reply".
type laggingRun struct {
	e      *env
	url    string
	second <-chan postAnswer
	letGo  func()
}

func startLaggingRun(t *testing.T) laggingRun {
	t.Helper()
	var held atomic.Bool
	model, release := make(chan struct{}), make(chan struct{})
	e := newEnvWith(t, envOptions{
		scripts: func() []func(context.Context) ([]turn.Chunk, error) {
			return []func(context.Context) ([]turn.Chunk, error){says("first reply"), gated(model, says("second reply"))}
		},
		wrap: func(r Runner) Runner { return startHeld{Runner: r, held: &held, release: release} },
	})
	// Registered after the server's: should the test stop early, the
	// held subscription and model call are let go before the handler
	// closes.
	var open sync.Once
	letGo := func() { open.Do(func() { close(release); close(model) }) }
	t.Cleanup(letGo)
	url := e.srv.URL + "/api/chat?protocol=ai-sdk"
	if a := <-postLater(url, chatBody("chat-lag", "hi")); a.err != nil || a.code != http.StatusOK {
		t.Fatalf("first post: %d %v:\n%s", a.code, a.err, a.body)
	}
	first := e.agent("chat-lag").Snapshot().RunID
	held.Store(true)
	second := postLater(url, chatBody("chat-lag", "again"))
	waitFor(t, func() bool {
		snap := e.agent("chat-lag").Snapshot()
		return snap.RunID != first && snap.Phase.InFlight()
	})
	return laggingRun{e: e, url: url, second: second, letGo: letGo}
}

// letGoOnceHeld lets l go once a second request holds its thread, as
// the second post does.
func (l laggingRun) letGoOnceHeld(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		for l.e.users("chat-lag") < 2 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Millisecond):
			}
		}
		time.Sleep(20 * time.Millisecond)
		l.letGo()
	}()
}

// TestAISDKResumeReplaysTheRunInFlightThroughALaggingLog: the AI SDK's
// resume request for a thread whose run in flight has started in the
// store but not yet in the thread's log replays that run, once the log
// has it, so that the official client rebuilds its reply. It replayed
// the run before, the last one the log held, which had ended: the
// client got the earlier reply and never the one in flight.
func TestAISDKResumeReplaysTheRunInFlightThroughALaggingLog(t *testing.T) {
	dir := aiSDKDir(t)
	l := startLaggingRun(t)
	l.letGoOnceHeld(t)
	res := uiClient(t, dir, l.url, "chat-lag", "resume")
	l.letGo()
	if a := <-l.second; a.err != nil || a.code != http.StatusOK {
		t.Fatalf("second post: %d %v:\n%s", a.code, a.err, a.body)
	}
	snap := l.e.agent("chat-lag").Snapshot()
	var text string
	for _, p := range res.Message.Parts {
		if p.Type == "text" {
			text += p.Text
		}
	}
	if res.Message.ID != snap.RunID || text != "second reply" {
		t.Errorf("resumed client rebuilt message %s saying %q, want %s (the run in flight) saying %q", res.Message.ID, text, snap.RunID, "second reply")
	}
}

// TestARepostReplaysTheRunInFlightThroughALaggingLog: a message posted
// again while the run it started is in flight, and the thread's log
// lags behind that run's start, gets that run's stream. It got the
// stream of the run before, the last the log held: the earlier reply,
// never the one to the message.
func TestARepostReplaysTheRunInFlightThroughALaggingLog(t *testing.T) {
	l := startLaggingRun(t)
	again := postLater(l.url, chatBody("chat-lag", "again"))
	l.letGoOnceHeld(t)
	a := <-again
	l.letGo()
	if a.err != nil || a.code != http.StatusOK || !strings.Contains(a.body, "second reply") || strings.Contains(a.body, "first reply") {
		t.Errorf("post again: %d %v, want the stream of the run in flight, saying %q:\n%s", a.code, a.err, "second reply", a.body)
	}
	if b := <-l.second; b.err != nil || b.code != http.StatusOK {
		t.Fatalf("second post: %d %v:\n%s", b.code, b.err, b.body)
	}
}
