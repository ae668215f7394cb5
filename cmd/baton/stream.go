package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
)

// printer shows a run's events as they come: text as it streams, tool
// calls and results one compact line each, numbered so a result names
// the call it answers, and, on a terminal, a status line while tools run
// or the model is awaited. With json set it writes the run log instead,
// one JSON line per event (ledger's JSONL format, which ledger.ReadJSONL
// reads back). Everything it prints for people is escaped for the
// terminal.
//
// The approval prompt and typed lines go through it too (ask, typed), so
// they start on a line of their own and no status line is drawn over
// them.
type printer struct {
	mu       sync.Mutex
	w        io.Writer
	json     bool
	sink     func(contract.RunEvent) // the run log, with --json
	tty      bool
	midLine  bool
	streamed bool              // text of the current model attempt was printed
	running  map[string]string // call id -> tool name
	calls    map[string]int    // call id -> number
	shown    map[string]chan struct{}
	frame    int
	drawn    bool
	asking   bool
	quiet    time.Time // when the last event was printed
	waiting  bool      // a model call is in flight, as far as events tell
	stop     chan struct{}
	wg       sync.WaitGroup
	now      func() time.Time
	// pre indents the event being printed, two spaces per delegation
	// level, so a child's output sits under the call that started it;
	// flow is the subflow path of the line being printed, which keys
	// calls too, since a child may reuse its parent's call ids.
	pre, flow string
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func newPrinter(w io.Writer, json, tty bool) *printer {
	p := &printer{
		w: w, json: json, tty: tty && !json,
		running: map[string]string{}, calls: map[string]int{}, shown: map[string]chan struct{}{},
		stop: make(chan struct{}),
		now:  time.Now,
	}
	p.quiet = p.now()
	if json {
		p.sink = ledger.JSONLSink(w)
	}
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

// close stops the status line and clears it.
func (p *printer) close() {
	close(p.stop)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.newline()
}

// tick draws the status line's next frame: which tools run, or how long
// the model has been awaited.
func (p *printer) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty || p.asking {
		return
	}
	var status string
	switch {
	case len(p.running) > 0:
		names := make([]string, 0, len(p.running))
		for _, n := range p.running {
			names = append(names, safeLine(n))
		}
		sort.Strings(names)
		status = "running " + strings.Join(names, ", ")
	case p.waiting && p.now().Sub(p.quiet) >= time.Second:
		status = fmt.Sprintf("waiting for the model (%ds)", int(p.now().Sub(p.quiet).Seconds()))
	default:
		p.clear()
		return
	}
	p.newline()
	fmt.Fprintf(p.w, "\r\033[K%s %s", spinFrames[p.frame%len(spinFrames)], status)
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
	fmt.Fprintf(p.w, p.pre+format+"\n", args...)
}

// enter switches to the subflow of ev, ending a line another run left
// open.
func (p *printer) enter(ev contract.RunEvent) {
	flow := strings.Join(ev.Subflow, "/")
	if flow != p.flow {
		p.newline()
		p.flow = flow
	}
	p.pre = strings.Repeat("  ", len(ev.Subflow))
}

// indent starts each line of streamed text at the current indentation.
func (p *printer) indent(t string) string {
	if p.pre == "" || t == "" {
		return t
	}
	if !p.midLine {
		t = p.pre + t
	}
	body := strings.TrimSuffix(t, "\n")
	return strings.ReplaceAll(body, "\n", "\n"+p.pre) + t[len(body):]
}

// event prints one event; it is the agent's subscriber.
func (p *printer) event(ev contract.RunEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.enter(ev)
	p.track(ev)
	if p.sink != nil {
		p.sink(ev)
		return
	}
	p.clear()
	p.text(ev)
}

// track keeps what the status line and the prompt need to know.
func (p *printer) track(ev contract.RunEvent) {
	p.quiet = p.now()
	switch ev.Kind {
	case contract.EvRunStarted, contract.EvModelRetry, contract.EvSteeringApplied, contract.EvFollowUpApplied, contract.EvCompaction:
		p.waiting = true
	case contract.EvTurnCompleted:
		p.waiting = false
		p.streamed = false
	case contract.EvToolResult:
		if ev.Result != nil {
			delete(p.running, p.flow+"/"+ev.Result.CallID)
		}
		p.waiting = len(p.running) == 0
	case contract.EvToolStarted:
		if ev.Call != nil {
			p.running[p.flow+"/"+ev.Call.ID] = ev.Call.Name
		}
	case contract.EvRunSettled, contract.EvRunFaulted:
		if len(ev.Subflow) == 0 {
			p.waiting = false
			clear(p.running)
		}
	}
}

func (p *printer) text(ev contract.RunEvent) {
	switch ev.Kind {
	case contract.EvTextDelta:
		t := safeText(ev.Text)
		fmt.Fprint(p.w, p.indent(t))
		if t != "" {
			p.midLine = !strings.HasSuffix(t, "\n")
			p.streamed = true
		}
	case contract.EvTurnStarted:
		// A call after one that ended in text alone (an answer the output
		// schema sent back) starts its text on a line of its own.
		p.newline()
	case contract.EvToolCall:
		p.call(ev.Call)
	case contract.EvToolResult:
		p.result(ev.Result)
	case contract.EvSubflowStarted:
		p.subflowStarted(ev)
	case contract.EvApprovalResolved:
		verdict := "denied"
		if ev.Approved {
			verdict = "approved"
		}
		p.line("  %s %s%s", verdict, p.callRef(ev.Call), safeLine(reason(ev.Text)))
	case contract.EvSteeringApplied, contract.EvFollowUpApplied:
		p.line("↪ %s", oneLine(ev.Text, 200))
	case contract.EvCompaction:
		p.line("·· %s", compactionText(ev.Text))
	case contract.EvModelRetry:
		p.retry(ev.Text)
	case contract.EvLoopWarning:
		p.line("·· loop guard: %s", oneLine(ev.Text, 200))
	case contract.EvLag:
		p.line("·· (missed %s)", count(int64(ev.Missed), "event"))
	case contract.EvInputDropped:
		p.line("·· not delivered (%s): %s", ev.Input, oneLine(ev.Text, 200))
	case contract.EvRunSettled:
		p.settled(ev)
	case contract.EvRunFaulted:
		if ev.Err != nil && ev.Err.Kind == contract.KindAborted {
			p.line("── stopped")
			return
		}
		p.line("── faulted: %s", faultText(ev.Err))
	}
}

// subflowStarted names a delegate call's child run and the session it
// keeps, which 'baton log' prints on its own or, with --children, inline.
func (p *printer) subflowStarted(ev contract.RunEvent) {
	ref := strings.TrimPrefix(p.callRef(ev.Call), contract.DelegatePrefix)
	if ev.Text == "" {
		p.line("⇢ %s started", ref)
		return
	}
	p.line("⇢ %s started as session %s", ref, safeLine(ev.Text))
}

// compactionText says what a compaction event did: the reducer's own text
// says when it was skipped or fell back; a summary means it condensed.
func compactionText(text string) string {
	if strings.HasPrefix(text, "skipped:") || strings.HasPrefix(text, "fallback:") {
		return "compaction " + oneLine(text, 200)
	}
	return "compacted history"
}

// retry reports a model call about to be tried again. Text the failed
// attempt streamed stays on screen, so it is marked as discarded rather
// than seeming to run on into the retried reply.
func (p *printer) retry(text string) {
	if p.streamed {
		p.line("·· (the reply above was cut off and is discarded)")
		p.streamed = false
	}
	p.line("·· retrying the model: %s", providerText(text))
}

func (p *printer) call(c *contract.ToolCall) {
	if c == nil {
		return
	}
	p.calls[p.flow+"/"+c.ID] = len(p.calls) + 1
	p.line("→ %s %s", p.callRef(c), oneLine(c.Arguments, 80))
	if ch, ok := p.shown[c.ID]; ok {
		// A later turn, or a delegate, may reuse an id whose line was
		// shown already: its channel is closed.
		select {
		case <-ch:
		default:
			close(ch)
		}
	} else {
		ch := make(chan struct{})
		close(ch)
		p.shown[c.ID] = ch
	}
}

// callRef names a call by its number and tool.
func (p *printer) callRef(c *contract.ToolCall) string {
	if c == nil {
		return ""
	}
	if n, ok := p.calls[p.flow+"/"+c.ID]; ok {
		return fmt.Sprintf("#%d %s", n, safeLine(c.Name))
	}
	return safeLine(c.Name)
}

func (p *printer) result(r *contract.ToolResult) {
	if r == nil {
		return
	}
	mark := "←"
	if r.IsError {
		mark = "✗"
	}
	ref := safeLine(r.Name)
	if n, ok := p.calls[p.flow+"/"+r.CallID]; ok {
		ref = fmt.Sprintf("#%d %s", n, ref)
	}
	p.line("%s %s: %s", mark, ref, oneLine(r.Content, 100))
}

func (p *printer) settled(ev contract.RunEvent) {
	if ev.Usage == nil {
		p.line("── done")
		return
	}
	p.line("── done: %s", usageLine(*ev.Usage))
}

// ask prints an approval prompt for a call on w (the terminal's prompt
// stream) once the call's own line is printed, or after a short wait if
// its event is late, on a line of its own; until answered is called no
// status line is drawn.
func (p *printer) ask(w io.Writer, call contract.ToolCall, prompt string) (answered func()) {
	p.mu.Lock()
	ch, ok := p.shown[call.ID]
	if !ok {
		ch = make(chan struct{})
		p.shown[call.ID] = ch
	}
	p.mu.Unlock()
	select {
	case <-ch:
	case <-time.After(500 * time.Millisecond):
	}
	p.mu.Lock()
	p.clear()
	p.newline()
	p.asking = true
	fmt.Fprint(w, prompt)
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.asking = false
		p.quiet = p.now()
		p.mu.Unlock()
	}
}

// typed shows a line typed while the run goes, on a line of its own: the
// terminal does not echo it, so it never lands inside streamed text.
func (p *printer) typed(prefix, line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		return
	}
	p.clear()
	p.line("%s%s", prefix, oneLine(line, 200))
}
