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
	// show prints a typed line where it belongs; the terminal does not
	// echo it while a run goes. Nil when the terminal echoes.
	show func(prefix, line string)
	// ask prints a prompt for a call after the call's own line.
	place func(call contract.ToolCall, prompt string) (answered func())
	// detach stops routing and gives the terminal its echo back.
	detach func()

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
				if c.show != nil {
					c.show("", line)
				}
				w <- line
			case strings.TrimSpace(line) != "":
				if c.show != nil {
					c.show("› ", line)
				}
				c.steer(line)
			}
		}
	}
}

// approve asks on the terminal whether a call may run.
func (c *console) approve(ctx context.Context, call contract.ToolCall, tool contract.ToolDescriptor) (conductor.Decision, error) {
	c.ask.Lock()
	defer c.ask.Unlock()
	text := approvalPrompt(call)
	for {
		answer := make(chan string, 1)
		c.mu.Lock()
		c.waiting = answer
		c.mu.Unlock()
		// The answer is registered before the prompt shows, so a line
		// typed as soon as it shows cannot be taken for steering.
		answered := c.prompt(call, text)
		select {
		case <-ctx.Done():
			answered()
			// Unregister, or route would hand the next typed line, a
			// steer, to this prompt that nobody waits on any more.
			c.mu.Lock()
			if c.waiting == answer {
				c.waiting = nil
			}
			c.mu.Unlock()
			return conductor.Decision{}, ctx.Err()
		case line := <-answer:
			answered()
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes":
				return conductor.Decision{Approved: true, Scope: contract.ScopeOnce}, nil
			case "a", "always":
				return conductor.Decision{Approved: true, Scope: contract.ScopeSession}, nil
			case "n", "no":
				return conductor.Decision{Approved: false, Reason: "the user said no"}, nil
			}
			text = "please answer y, n or a\n" + approvalPrompt(call)
		}
	}
}

// prompt shows the approval prompt, after the call's line when a printer
// places it.
func (c *console) prompt(call contract.ToolCall, text string) (answered func()) {
	if c.place != nil {
		return c.place(call, text)
	}
	fmt.Fprint(c.prompts, text)
	return func() {}
}

// approvalPrompt asks whether a call may run, showing the whole of what
// it acts on: a long or multi-line command is shown in full, its control
// characters escaped, so no part of it can hide behind a harmless start.
func approvalPrompt(call contract.ToolCall) string {
	return fmt.Sprintf("run %s %s? [y]es/[n]o/[a]lways ", safeLine(call.Name), callSubject(call))
}

// callSubject is what a call acts on: the command, URL or path when that
// is its only argument, otherwise every argument.
func callSubject(call contract.ToolCall) string {
	var args map[string]any
	if json.Unmarshal([]byte(call.Arguments), &args) == nil && len(args) == 1 {
		for _, k := range []string{"command", "url", "path"} {
			if s, ok := args[k].(string); ok {
				return "`" + safeLine(s) + "`"
			}
		}
	}
	return safeLine(call.Arguments)
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
