package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// console routes the lines typed on stdin while a run goes: to the
// approval or question prompt waiting for an answer, if one is, and
// otherwise to the run as steering.
type console struct {
	prompts io.Writer
	lines   <-chan string
	// refused tells of a line too long to read; nil when none can be.
	refused <-chan struct{}
	steer   func(string)
	// show prints a typed line where it belongs; the terminal does not
	// echo it while a run goes. Nil when the terminal echoes.
	show func(prefix, line string)
	// place prints a prompt for a call after the call's own line.
	place func(call contract.ToolCall, prompt string) (answered func())
	// detach stops routing and gives the terminal its echo back.
	detach func()

	// ended closes when stdin does: no answer can come any more.
	ended chan struct{}

	asking  sync.Mutex // one prompt at a time
	mu      sync.Mutex
	waiting chan string
	// withdrawn accepts the answers of a prompt withdrawn while shown
	// (its call was decided some other way: an "always" on a call before
	// it, the API): the next line, when it is one, was typed at the
	// prompt and is not steering.
	withdrawn func(string) bool
}

// errStdinEnded is a prompt's error once stdin has ended.
var errStdinEnded = errors.New("stdin was closed")

// route delivers lines until ctx ends or stdin closes.
func (c *console) route(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.refused:
			// Said, so that the paste is not taken as sent, nor the
			// input as ended.
			c.note(fmt.Sprintf("baton: a typed line longer than %d MiB was not read; put long text in a file and name the file", maxTypedLine>>20))
		case line, ok := <-c.lines:
			if !ok {
				if c.ended != nil {
					close(c.ended)
				}
				return
			}
			c.mu.Lock()
			w, late := c.waiting, c.withdrawn
			c.waiting, c.withdrawn = nil, nil
			c.mu.Unlock()
			switch {
			case w != nil:
				if c.show != nil {
					c.show("", line)
				}
				w <- line
			case late != nil && late(line):
				c.note(line + " (not sent: the prompt it answers was withdrawn, its call decided already)")
			case strings.TrimSpace(line) != "":
				if c.show != nil {
					c.show("› ", line)
				}
				c.steer(line)
			}
		}
	}
}

// note shows a line about a typed line, where typed lines show.
func (c *console) note(text string) {
	if c.show != nil {
		c.show("", text)
		return
	}
	fmt.Fprintln(c.prompts, text)
}

// approve asks on the terminal whether a call may run; "always" allows
// for the session what the prompt names (the command names of a shell
// line, the host of a URL), not the whole tool.
func (c *console) approve(ctx context.Context, req conductor.ApprovalRequest) (conductor.Decision, error) {
	line, err := c.ask(ctx, req.Call, approvalPrompt(req), "please answer y, n or a\n", func(line string) bool {
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes", "a", "always", "n", "no":
			return true
		}
		return false
	})
	if errors.Is(err, errStdinEnded) {
		return conductor.Decision{Approved: false, Reason: "stdin was closed, so nobody can approve " + req.Call.Name}, nil
	}
	if err != nil {
		return conductor.Decision{}, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return conductor.Decision{Approved: true, Scope: contract.ScopeOnce}, nil
	case "a", "always":
		return conductor.Decision{Approved: true, Scope: contract.ScopeSession}, nil
	}
	return conductor.Decision{Approved: false, Reason: "the user said no"}, nil
}

// answer puts a question the model asked to the person at the terminal;
// a number picks one of the offered choices.
func (c *console) answer(ctx context.Context, req conductor.QuestionRequest) (string, error) {
	q := req.Question
	line, err := c.ask(ctx, req.Call, questionPrompt(req), "", func(line string) bool { return strings.TrimSpace(line) != "" })
	if errors.Is(err, errStdinEnded) {
		return "(no answer: stdin was closed, so nobody can answer)", nil
	}
	if err != nil {
		return "", err
	}
	line = strings.TrimSpace(line)
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(q.Choices) {
		return q.Choices[n-1], nil
	}
	return line, nil
}

// ask shows a prompt about a call and waits for a line that ok accepts,
// showing retry and the prompt again after any other line, or for ctx or
// stdin to end.
func (c *console) ask(ctx context.Context, call contract.ToolCall, text, retry string, ok func(string) bool) (string, error) {
	c.asking.Lock()
	defer c.asking.Unlock()
	// A call decided some other way while its prompt queued behind
	// another is not asked about at all.
	if err := ctx.Err(); err != nil {
		return "", err
	}
	for again := false; ; again = true {
		answer := make(chan string, 1)
		c.mu.Lock()
		c.waiting = answer
		c.mu.Unlock()
		// The answer is registered before the prompt shows, so a line
		// typed as soon as it shows cannot be taken for steering.
		shown := text
		if again {
			shown = retry + text
		}
		answered := c.prompt(call, shown)
		select {
		case <-ctx.Done():
			answered()
			c.unregister(answer, ok)
			return "", ctx.Err()
		case <-c.ended:
			answered()
			c.unregister(answer, nil)
			// The last line may have been handed over just before stdin
			// ended, both ready at once: it is the answer still.
			select {
			case line := <-answer:
				if ok(line) {
					return line, nil
				}
			default:
			}
			return "", errStdinEnded
		case line := <-answer:
			answered()
			if ok(line) {
				return line, nil
			}
		}
	}
}

// unregister drops a prompt's answer channel, or route would hand the
// next typed line, a steer, to a prompt that nobody waits on any more;
// a line that answers it (accepts) is not taken for a steer either.
func (c *console) unregister(answer chan string, accepts func(string) bool) {
	c.mu.Lock()
	if c.waiting == answer {
		c.waiting, c.withdrawn = nil, accepts
	}
	c.mu.Unlock()
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

// questionPrompt puts a question to the person, its choices numbered.
// A delegate's child asking is named by its delegate call's path: its
// prompt may show among its parent's lines, and the model that asks is
// not the one the person talks to.
func questionPrompt(req conductor.QuestionRequest) string {
	q := req.Question
	var text strings.Builder
	text.WriteString("? ")
	if len(req.Subflow) > 0 {
		fmt.Fprintf(&text, "(asked in delegate call %s) ", safeLine(strings.Join(req.Subflow, "/")))
	}
	fmt.Fprintf(&text, "%s\n", safeLine(q.Text))
	for i, choice := range q.Choices {
		fmt.Fprintf(&text, "  %d) %s\n", i+1, safeLine(choice))
	}
	text.WriteString("answer> ")
	return text.String()
}

// approvalPrompt asks whether a call may run, showing the whole of what
// it acts on: a long or multi-line command is shown in full, its control
// characters escaped, so no part of it can hide behind a harmless start.
// "always" names what it would allow for the session.
func approvalPrompt(req conductor.ApprovalRequest) string {
	return fmt.Sprintf("run %s %s? [y]es/[n]o/[a]lways allow %s ", safeLine(req.Call.Name), callSubject(req.Call), keyList(req.Call.Name, req.Keys))
}

// keyList names what "always" would allowlist: the keys without their
// tool prefix, or every call of the tool.
func keyList(tool string, keys []string) string {
	var out []string
	for _, k := range keys {
		if k == tool {
			return "all " + safeLine(tool) + " calls"
		}
		out = append(out, safeLine(strings.TrimPrefix(k, tool+":")))
	}
	if len(out) == 0 {
		return "all " + safeLine(tool) + " calls"
	}
	return strings.Join(out, ", ")
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
	return func(ctx context.Context, req conductor.ApprovalRequest) (conductor.Decision, error) {
		call := req.Call
		if yes {
			return conductor.Decision{Approved: true, Scope: contract.ScopeOnce, Reason: "approved by --yes"}, nil
		}
		return conductor.Decision{Approved: false, Reason: "stdin is not a terminal, so nobody can approve " + call.Name + "; run baton with --yes to approve tool calls"}, nil
	}
}

// autoAnswerer answers the model's questions when nobody is at a
// terminal, as a run resumed from a script does with a question its
// stopped process left open; without it the run would wait forever.
func autoAnswerer(context.Context, conductor.QuestionRequest) (string, error) {
	return "(no answer: stdin is not a terminal, so nobody can answer)", nil
}

// maxTypedLine bounds a line typed at the terminal, well beyond a
// pasted page: a longer one is refused whole, not cut, since part of a
// line is not what was meant.
const maxTypedLine = 1 << 20

// readLines sends stdin's lines until it ends or done closes; a line
// longer than maxTypedLine is not sent, but told on refused.
func readLines(done <-chan struct{}, r io.Reader) (lines <-chan string, refused <-chan struct{}) {
	out, long := make(chan string), make(chan struct{})
	go func() {
		defer close(out)
		br := bufio.NewReader(r)
		for {
			line, tooLong, err := readLine(br)
			if line == nil {
				return
			}
			send, refuse := out, long
			if tooLong {
				send = nil
			} else {
				refuse = nil
			}
			select {
			case send <- string(line):
			case refuse <- struct{}{}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return out, long
}

// readLine reads one line without its end ("\n" or "\r\n"), keeping no
// more than maxTypedLine of it: tooLong says there was more. The last
// line may lack its end; line is nil once nothing more can be read.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		// Past the bound the rest is read and dropped; what is kept
		// exceeds it, so the line is known to be too long.
		if len(b) <= maxTypedLine+2 {
			b = append(b, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(b) == 0 && err != nil {
			return nil, false, err
		}
		line := bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
		return line, len(line) > maxTypedLine, err
	}
}
