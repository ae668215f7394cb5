package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/batonrt/baton/contract"
)

// printer shows a run's events as they come: text as it streams, tool
// calls and results one compact line each, and, on a terminal, a spinner
// while tools run. With json set it prints each event as a JSON line.
type printer struct {
	mu      sync.Mutex
	w       io.Writer
	json    bool
	tty     bool
	midLine bool
	running map[string]string // call id -> tool name
	names   map[string]string
	frame   int
	drawn   bool
	ended   chan struct{}
	endOnce sync.Once
	stop    chan struct{}
	wg      sync.WaitGroup
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func newPrinter(w io.Writer, json, tty bool) *printer {
	p := &printer{w: w, json: json, tty: tty && !json, running: map[string]string{}, names: map[string]string{}, ended: make(chan struct{}), stop: make(chan struct{})}
	if p.tty {
		ticker := time.NewTicker(100 * time.Millisecond)
		p.wg.Go(func() {
			defer ticker.Stop()
			for {
				select {
				case <-ticker.C:
					p.tick()
				case <-p.stop:
					return
				}
			}
		})
	}
	return p
}

// close stops the spinner and clears it.
func (p *printer) close() {
	close(p.stop)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.newline()
}

// tick draws the spinner's next frame while tools run.
func (p *printer) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty {
		return
	}
	if len(p.running) == 0 {
		p.clear()
		return
	}
	names := make([]string, 0, len(p.running))
	for _, n := range p.running {
		names = append(names, n)
	}
	sort.Strings(names)
	p.newline()
	fmt.Fprintf(p.w, "\r\033[K%s running %s", spinFrames[p.frame%len(spinFrames)], strings.Join(names, ", "))
	p.frame++
	p.drawn = true
}

func (p *printer) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

func (p *printer) newline() {
	if p.midLine {
		fmt.Fprintln(p.w)
		p.midLine = false
	}
}

func (p *printer) line(format string, args ...any) {
	p.newline()
	fmt.Fprintf(p.w, format+"\n", args...)
}

// event prints one event; it is the agent's subscriber.
func (p *printer) event(ev contract.RunEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ev.Kind == contract.EvRunSettled || ev.Kind == contract.EvRunFaulted {
		defer p.endOnce.Do(func() { close(p.ended) })
	}
	if p.json {
		if b, err := contract.EncodeEvent(ev); err == nil {
			fmt.Fprintf(p.w, "%s\n", b)
		}
		return
	}
	p.clear()
	p.text(ev)
}

func (p *printer) text(ev contract.RunEvent) {
	switch ev.Kind {
	case contract.EvTextDelta:
		fmt.Fprint(p.w, ev.Text)
		p.midLine = !strings.HasSuffix(ev.Text, "\n")
	case contract.EvToolCall:
		p.names[ev.Call.ID] = ev.Call.Name
		p.line("→ %s %s", ev.Call.Name, oneLine(ev.Call.Arguments, 80))
	case contract.EvToolStarted:
		if ev.Call != nil {
			p.running[ev.Call.ID] = ev.Call.Name
		}
	case contract.EvToolResult:
		p.result(ev.Result)
	case contract.EvApprovalResolved:
		verdict := "denied"
		if ev.Approved {
			verdict = "approved"
		}
		p.line("  %s %s%s", verdict, p.callName(ev), reason(ev.Text))
	case contract.EvSteeringApplied, contract.EvFollowUpApplied:
		p.line("↪ %s", oneLine(ev.Text, 100))
	case contract.EvCompaction:
		p.line("·· compacted history")
	case contract.EvModelRetry:
		p.line("·· retrying the model: %s", oneLine(ev.Text, 100))
	case contract.EvLoopWarning:
		p.line("·· loop guard: %s", oneLine(ev.Text, 100))
	case contract.EvLag:
		p.line("·· (missed %d events)", ev.Missed)
	case contract.EvRunSettled:
		p.settled(ev)
	case contract.EvRunFaulted:
		p.line("── faulted: %s", faultText(ev.Err))
	}
}

func (p *printer) callName(ev contract.RunEvent) string {
	if ev.Call != nil {
		return ev.Call.Name
	}
	return ""
}

func (p *printer) result(r *contract.ToolResult) {
	if r == nil {
		return
	}
	delete(p.running, r.CallID)
	mark := "←"
	if r.IsError {
		mark = "✗"
	}
	p.line("%s %s: %s", mark, r.Name, oneLine(r.Content, 100))
}

func (p *printer) settled(ev contract.RunEvent) {
	if ev.Usage == nil {
		p.line("── done")
		return
	}
	u := ev.Usage
	p.line("── done: %s", usageLine(*u))
}

func faultText(e *contract.RunError) string {
	if e == nil {
		return "unknown error"
	}
	return strings.TrimPrefix(e.Error(), "baton: ")
}

// wait blocks until the run's end was printed, or d passes: the end
// event can trail the Submit that returned it by a moment.
func (p *printer) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.ended:
	case <-t.C:
	}
}
