package main

import (
	"context"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// An approval whose context ends must give the console back: the next
// line typed is steering, not an answer to a prompt nobody waits on.
func TestConsoleLineAfterCancelledApprovalSteers(t *testing.T) {
	lines := make(chan string)
	steered := make(chan string, 1)
	c := &console{prompts: discard{}, lines: lines, steer: func(s string) { steered <- s }}
	rctx, stop := context.WithCancel(context.Background())
	routed := make(chan struct{})
	go func() { defer close(routed); c.route(rctx) }()
	defer func() { stop(); <-routed }()

	actx, cancel := context.WithCancel(context.Background())
	asked := make(chan error, 1)
	go func() {
		_, err := c.approve(actx, conductor.ApprovalRequest{Call: contract.ToolCall{ID: "c1", Name: "shell", Arguments: `{"command":"ls"}`}, Tool: contract.ToolDescriptor{Name: "shell"}, Keys: []string{"shell:ls"}})
		asked <- err
	}()
	for {
		c.mu.Lock()
		w := c.waiting
		c.mu.Unlock()
		if w != nil {
			break
		}
	}
	cancel()
	if err := <-asked; err == nil {
		t.Fatal("approve with an ended context: got no error")
	}
	lines <- "focus on the tests"
	select {
	case got := <-steered:
		if got != "focus on the tests" {
			t.Errorf("steered %q, want the typed line", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the line typed after a cancelled approval never steered the run")
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// A line typed at a prompt and then the end of stdin, as `printf 'a\n' |`
// gives them, can both be ready when the prompt looks: the line is the
// answer, not "stdin was closed". Each round hands the line over and
// ends stdin before the prompt waits, so a random pick of the two would
// deny in about half of them.
func TestConsoleAnswerJustBeforeStdinEnds(t *testing.T) {
	for round := range 64 {
		c := &console{prompts: discard{}, ended: make(chan struct{})}
		c.place = func(contract.ToolCall, string) func() {
			c.mu.Lock()
			w := c.waiting
			c.waiting = nil
			c.mu.Unlock()
			w <- "a"
			close(c.ended)
			return func() {}
		}
		d, err := c.approve(context.Background(), conductor.ApprovalRequest{Call: contract.ToolCall{ID: "c1", Name: "shell"}})
		if err != nil || !d.Approved || d.Scope != contract.ScopeSession {
			t.Fatalf("round %d: decision %+v, %v; want approved for the session", round, d, err)
		}
	}
}
