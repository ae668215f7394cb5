package wire

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/batonrt/baton/wire/agui"
)

// A draining handler takes no new work: a new thread gets 503 with a
// Retry-After, one handed over by another handler 421, so that the
// sender opens it itself. The run in flight goes on to its end, and its
// stream with it; Drain returns once it has.
func TestDrainRefusesNewWorkAndLetsTheRunEnd(t *testing.T) {
	gate := make(chan struct{})
	e := newEnv(t, blockingScript(gate))
	first := e.post(context.Background(), runBody("t1", "one"), nil)
	defer first.Body.Close()
	waitFor(t, func() bool { return e.agent("t1") != nil && e.agent("t1").Snapshot().Phase.InFlight() })
	drained := make(chan error, 1)
	go func() { drained <- e.h.Drain(context.Background()) }()
	waitFor(t, func() bool {
		e.h.mu.Lock()
		defer e.h.mu.Unlock()
		return e.h.draining
	})
	for _, tc := range []struct {
		name   string
		header map[string]string
		code   int
	}{
		{"a new thread", nil, http.StatusServiceUnavailable},
		{"a new thread handed over", map[string]string{forwardedHeader: "1"}, http.StatusMisdirectedRequest},
	} {
		resp := e.post(context.Background(), runBody("t2", "two"), tc.header)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%s while draining: %d %q, want %d", tc.name, resp.StatusCode, b, tc.code)
		}
		if tc.code == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s while draining: 503 without a Retry-After", tc.name)
		}
	}
	close(gate)
	if got := types(readSSE(t, first.Body)); got[len(got)-1] != agui.RunFinished {
		t.Errorf("the run in flight did not finish: %v", got)
	}
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
}
