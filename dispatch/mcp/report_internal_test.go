package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/batonrt/baton/dispatch"
)

// TestNoReportBeforeConnected: a change the server announces while the
// handshake is under way (the reference TypeScript server does, for the
// tools it adds once it knows the client) starts no report: there is no
// connection to list the tools with yet, and Tools lists them once
// Connect returns. Before, the report read the connection that was not
// there and crashed the host.
func TestNoReportBeforeConnected(t *testing.T) {
	reported := make(chan []dispatch.Tool, 1)
	s := &Source{srv: Server{Name: "x", ListTimeout: time.Second, OnToolsChanged: func(_ context.Context, tools []dispatch.Tool) { reported <- tools }}, stale: true, reports: make(chan struct{})}
	s.life, s.end = context.WithCancel(context.Background())
	defer s.end()
	s.markStale()
	s.reportDone.Wait()
	select {
	case tools := <-reported:
		t.Errorf("reported %d tools before the connection was made", len(tools))
	default:
	}
	if !s.stale {
		t.Error("the announced change is not left for the first listing")
	}
}
