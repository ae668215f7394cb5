package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// console routes the lines typed on stdin while a run goes: to the
// approval prompt waiting for an answer, if one is, and otherwise to the
// run as steering.
type console struct {
	prompts io.Writer
	lines   <-chan string
	steer   func(string)

	ask     sync.Mutex // one prompt at a time
	mu      sync.Mutex
	waiting chan string
}

// route delivers lines until ctx ends or stdin closes.
func (c *console) route(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case line, ok := <-c.lines:
			if !ok {
				return
			}
			c.mu.Lock()
			w := c.waiting
			c.waiting = nil
			c.mu.Unlock()
			switch {
			case w != nil:
				w <- line
			case strings.TrimSpace(line) != "":
				c.steer(line)
			}
		}
	}
}

// approve asks on the terminal whether a call may run.
func (c *console) approve(ctx context.Context, call contract.ToolCall, tool contract.ToolDescriptor) (conductor.Decision, error) {
	c.ask.Lock()
	defer c.ask.Unlock()
	for again := false; ; again = true {
		answer := make(chan string, 1)
		c.mu.Lock()
		c.waiting = answer
		c.mu.Unlock()
		// The prompt is registered before it is shown, so an answer typed
		// as soon as it appears cannot go to the run as steering.
		if again {
			fmt.Fprintln(c.prompts, "please answer y, n or a")
		}
		fmt.Fprintf(c.prompts, "run %s `%s`? [y]es/[n]o/[a]lways ", call.Name, callSubject(call))
		select {
		case <-ctx.Done():
			// Unregister, or route would hand the next typed line, a
			// steer, to this prompt that nobody waits on any more.
			c.mu.Lock()
			if c.waiting == answer {
				c.waiting = nil
			}
			c.mu.Unlock()
			return conductor.Decision{}, ctx.Err()
		case line := <-answer:
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes":
				return conductor.Decision{Approved: true, Scope: contract.ScopeOnce}, nil
			case "a", "always":
				return conductor.Decision{Approved: true, Scope: contract.ScopeSession}, nil
			case "n", "no":
				return conductor.Decision{Approved: false, Reason: "the user said no"}, nil
			}
		}
	}
}

// callSubject is what a call acts on, shown in the approval prompt.
func callSubject(call contract.ToolCall) string {
	var args map[string]any
	if json.Unmarshal([]byte(call.Arguments), &args) == nil {
		for _, k := range []string{"command", "url", "path"} {
			if s, ok := args[k].(string); ok {
				return oneLine(s, 120)
			}
		}
	}
	return oneLine(call.Arguments, 120)
}

// autoApprover answers without asking: yes to all with --yes, otherwise
// no, since nobody is at a terminal to ask.
func autoApprover(yes bool) conductor.Approver {
	return func(ctx context.Context, call contract.ToolCall, tool contract.ToolDescriptor) (conductor.Decision, error) {
		if yes {
			return conductor.Decision{Approved: true, Scope: contract.ScopeOnce, Reason: "approved by --yes"}, nil
		}
		return conductor.Decision{Approved: false, Reason: "stdin is not a terminal, so nobody can approve " + call.Name + "; run baton with --yes to approve tool calls"}, nil
	}
}

// readLines sends stdin's lines until it ends or done closes.
func readLines(done <-chan struct{}, r io.Reader) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			select {
			case out <- sc.Text():
			case <-done:
				return
			}
		}
	}()
	return out
}
