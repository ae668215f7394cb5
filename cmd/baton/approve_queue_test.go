package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// lockedBuffer is a prompt stream the console and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func shellRequest(id, command string) conductor.ApprovalRequest {
	return conductor.ApprovalRequest{Call: contract.ToolCall{ID: id, Name: "shell", Arguments: `{"command":"` + command + `"}`}, Tool: contract.ToolDescriptor{Name: "shell"}, Keys: []string{"shell:ls"}}
}

// TestConsoleAnswerToAWithdrawnPromptIsNotSteering: a prompt shows, then
// its call is decided some other way ("always" on a call of the same
// reply, the API) and the prompt is withdrawn. The "y" the person types
// at it is not sent to the run as steering, which would skip the calls
// not yet started; the line after it steers as usual.
func TestConsoleAnswerToAWithdrawnPromptIsNotSteering(t *testing.T) {
	lines := make(chan string)
	steered := make(chan string, 2)
	out := &lockedBuffer{}
	c := &console{prompts: out, lines: lines, steer: func(s string) { steered <- s }}
	rctx, stop := context.WithCancel(context.Background())
	routed := make(chan struct{})
	go func() { defer close(routed); c.route(rctx) }()
	defer func() { stop(); <-routed }()

	actx, decided := context.WithCancel(context.Background())
	asked := make(chan error, 1)
	go func() {
		_, err := c.approve(actx, shellRequest("c2", "ls -la"))
		asked <- err
	}()
	waitPrompt(t, c)
	decided()
	if err := <-asked; err == nil {
		t.Fatal("approve with an ended context: got no error")
	}
	lines <- "y"
	lines <- "focus on the tests"
	select {
	case got := <-steered:
		if got != "focus on the tests" {
			t.Errorf("steered %q, want only the line after the answer", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the line after the answer never steered the run")
	}
	if !strings.Contains(out.String(), "not sent") {
		t.Errorf("the person was not told the answer went nowhere:\n%s", out.String())
	}
}

// TestConsoleSkipsAPromptDecidedWhileQueued: a call decided while its
// prompt queued behind another's is not asked about.
func TestConsoleSkipsAPromptDecidedWhileQueued(t *testing.T) {
	out := &lockedBuffer{}
	c := &console{prompts: out, lines: make(chan string), steer: func(string) {}}
	ctx, decided := context.WithCancel(context.Background())
	decided()
	if _, err := c.approve(ctx, shellRequest("c2", "ls -la")); err == nil {
		t.Error("approve with an ended context: got no error")
	}
	if got := out.String(); got != "" {
		t.Errorf("the prompt of a call already decided was shown:\n%s", got)
	}
}

// waitPrompt waits, bounded, until the console waits for an answer.
func waitPrompt(t *testing.T, c *console) {
	t.Helper()
	for range 5000 {
		c.mu.Lock()
		w := c.waiting
		c.mu.Unlock()
		if w != nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("no prompt waits for an answer")
}
