package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// driveSpec is one prompt to run on a session.
type driveSpec struct {
	store     store.Store
	provider  turn.Provider
	model     string
	sessionID string
	// existing says the session is stored already and goes on.
	existing bool
	// tools are the agent's own; each run offers them with the MCP
	// servers' tools as they are when it starts, and as they change while
	// it goes on.
	tools  []dispatch.Tool
	mcp    *mcpServers
	prompt string
	json   bool
	yes    bool
	// runConfig holds what the flags set of each run's config.
	runConfig runConfig
	// driver holds the model call's timeouts and retries; its Provider
	// is set from provider.
	driver conductor.Model
	// delegates and maxDepth come from an agents file.
	delegates []contract.Delegate
	maxDepth  int
	clock     conductor.Clock
	ids       conductor.IDSource
	// workDir is the session's working directory; instructions names the
	// project instruction files looked for from it.
	workDir      string
	instructions []string
	// output, when set, requires the final answer to match a JSON schema.
	output *contract.OutputSchema
	// storeArg is the --store flag a command printed for the user
	// repeats.
	storeArg string
}

// drive runs one prompt to the end of its run, streaming the events. On
// a stored session it first finishes a run left in flight, saying what
// that does, with the printer already subscribed so nothing it does is
// hidden.
func (a *app) drive(ctx context.Context, spec driveSpec) (contract.RunSnapshot, error) {
	box, err := dispatch.NewToolBox(spec.tools...)
	if err != nil {
		return contract.RunSnapshot{}, err
	}
	done := make(chan struct{})
	defer close(done)
	spec.driver.Provider = spec.provider
	deps := conductor.Deps{
		Model: spec.driver,
		Tools: conductor.Tools{Box: box},
		Env:   conductor.Env{Store: spec.store, SessionID: spec.sessionID, Clock: spec.clock, IDs: spec.ids, WorkDir: spec.workDir, Instructions: spec.instructions},
	}
	var con *console
	deps.People.Approver = autoApprover(spec.yes)
	deps.People.Answerer = autoAnswerer
	if a.interactive {
		lines, refused := readLines(done, a.stdin)
		con = &console{prompts: a.stderr, lines: lines, refused: refused, ended: make(chan struct{})}
		deps.People.Answerer = con.answer
		if !spec.yes {
			deps.People.Approver = con.approve
		}
	}
	cfg := baseConfig(spec.model)
	spec.runConfig.apply(&cfg)
	cfg.Delegates, cfg.MaxDelegationDepth = spec.delegates, spec.maxDepth
	cfg.Output = spec.output
	agent, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		return contract.RunSnapshot{}, err
	}
	defer agent.Close()
	defer spec.mcp.follow(agent, spec.tools)()
	if a.tracer != nil {
		// Close delivers what is queued, so no detach is needed.
		a.tracer.Attach(agent)
	}
	p := newPrinter(a.stdout, spec.json, a.tty)
	defer p.close()
	unsubscribe := agent.Subscribe(p.event)
	defer unsubscribe()
	if con != nil {
		a.attachConsole(ctx, con, p, agent)
		defer con.detach()
	}
	stop := a.watchInterrupts(agent, spec, func() {
		if con != nil {
			con.detach()
		}
	})
	defer stop()
	if spec.existing {
		if note := resumeNote(ctx, spec.store, spec.sessionID); note != "" && !spec.json {
			// A session another process drives is not finished here, so
			// the note would be wrong: Resume says it is locked.
			if release, err := spec.store.Lock(ctx, spec.sessionID); err == nil {
				release()
				p.typed("", note)
			}
		}
		var runTools []dispatch.Tool
		if spec.mcp != nil {
			// A run left in flight calls the servers' tools too.
			runTools = spec.mcp.with(ctx, spec.tools)
		}
		snap, err := agent.Resume(ctx, spec.sessionID, runTools...)
		flush(ctx, agent)
		if err != nil {
			return snap, err
		}
	}
	snap, err := agent.Submit(ctx, conductor.Input{Text: spec.prompt, Tools: spec.mcp.with(ctx, spec.tools)})
	flush(ctx, agent)
	return snap, err
}

// flush lets the printer show the run's last events before the command
// goes on; a printer that cannot keep up is not waited for long.
func flush(ctx context.Context, agent *conductor.Agent) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_ = agent.Flush(ctx)
}

// attachConsole routes typed lines to the agent while the run goes: to an
// approval prompt placed by the printer, or as steering. On a terminal
// the typed text is not echoed while a run streams; the printer shows
// each line whole once Enter is pressed.
func (a *app) attachConsole(ctx context.Context, con *console, p *printer, agent *conductor.Agent) {
	con.place = func(call contract.ToolCall, prompt string) func() { return p.ask(a.stderr, call, prompt) }
	show := p.typed
	if p.json {
		// stdout holds the run's events only: typed lines, and what
		// became of them, show on stderr beside the prompts.
		show = func(prefix, line string) {
			p.mu.Lock() // in turn with the prompts
			defer p.mu.Unlock()
			fmt.Fprintf(a.stderr, "%s%s\n", prefix, oneLine(line, 200))
		}
	}
	con.steer = func(line string) {
		if err := agent.Steer(ctx, conductor.Text(line)); err != nil {
			show("", "baton: steer: "+err.Error())
		}
	}
	var restore func()
	if a.echoOff != nil {
		restore = a.echoOff()
		con.show = show
	}
	rctx, cancel := context.WithCancel(ctx)
	routed := make(chan struct{})
	go func() { defer close(routed); con.route(rctx) }()
	con.detach = func() {
		cancel()
		<-routed
		if restore != nil {
			restore()
		}
	}
}

// forceGrace is how long a run has to stop after the second Ctrl-C
// asked for the first abort-now, before baton exits without it.
const forceGrace = time.Second

// watchInterrupts turns Ctrl-C into an abort. The first stops at once
// unless tools are running, which it lets finish (no model call follows);
// the second stops at once. A step that ignores the abort (a tool or a
// provider deaf to cancellation) would leave the process running with no
// way out but SIGKILL, so a Ctrl-C once an abort-now was asked for exits
// (130) at once, through leave: the session stays as the store last
// committed it, which a later run resumes.
func (a *app) watchInterrupts(agent *conductor.Agent, spec driveSpec, leave func()) (stop func()) {
	if a.interrupts == nil {
		return func() {}
	}
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		abortedNow := false
		for n := 0; ; n++ {
			select {
			case <-quit:
				return
			case <-a.interrupts:
			}
			if abortedNow {
				a.abandonRun(spec, leave)
				return
			}
			mode, msg := contract.AbortNow, "\nbaton: stopping"
			if n == 0 && toolsRunning(agent.Snapshot()) {
				mode, msg = contract.AbortAfterTools, "\nbaton: stopping after the running tools (Ctrl-C again to stop now)"
			}
			fmt.Fprintln(a.stderr, msg)
			// The user's own abort, asked of the process: it waits for the
			// agent to take it up, whatever else ends.
			if err := agent.Abort(context.Background(), mode); err != nil && !errors.Is(err, conductor.ErrNoRun) {
				fmt.Fprintf(a.stderr, "baton: abort: %v\n", err)
			}
			abortedNow = mode == contract.AbortNow
			if abortedNow && n > 0 {
				// Asked twice already: a run that stops in time stops
				// as recorded, one that does not is left.
				select {
				case <-quit:
					return
				case <-a.interrupts:
				case <-time.After(forceGrace):
				}
				a.abandonRun(spec, leave)
				return
			}
		}
	}()
	return func() { close(quit); <-finished }
}

// abandonRun exits while a run goes on in spite of its abort, saying how
// to go on with the session.
func (a *app) abandonRun(spec driveSpec, leave func()) {
	fmt.Fprintf(a.stderr, "\nbaton: the run does not stop; exiting without it. Session %s stays as last saved: 'baton run%s --session %s \"...\"' goes on with it\n", spec.sessionID, spec.storeArg, spec.sessionID)
	leave()
	a.exitProcess(exitStopped)
}

// exitProcess ends the process at once with code.
func (a *app) exitProcess(code int) {
	if a.exitNow != nil {
		a.exitNow(code)
		return
	}
	os.Exit(code)
}

// stopOnInterrupt returns a context Ctrl-C cancels, for the work before
// a run starts, which no abort reaches; stopped ends the watch and
// reports whether Ctrl-C came.
func (a *app) stopOnInterrupt(ctx context.Context) (context.Context, func() (stopped bool)) {
	return a.cancelOnInterrupt(ctx, "\nbaton: stopping")
}

// errInterrupted is the cause of a context cancelOnInterrupt cancelled.
var errInterrupted = errors.New("interrupted")

// cancelOnInterrupt returns a context the first Ctrl-C cancels, with
// errInterrupted as its cause, saying said; work that does not heed
// the cancel is left at the next Ctrl-C, which exits (130) at once.
// stopped ends the watch and reports whether Ctrl-C came.
func (a *app) cancelOnInterrupt(ctx context.Context, said string) (context.Context, func() (stopped bool)) {
	ctx, cancel := context.WithCancelCause(ctx)
	if a.interrupts == nil {
		return ctx, func() bool { cancel(nil); return false }
	}
	quit := make(chan struct{})
	got := make(chan bool, 1)
	go func() {
		select {
		case <-a.interrupts:
			fmt.Fprintln(a.stderr, said)
			cancel(errInterrupted)
			got <- true
		case <-quit:
			got <- false
			return
		}
		select {
		case <-a.interrupts:
			fmt.Fprintln(a.stderr, "baton: exiting without waiting")
			a.exitProcess(exitStopped)
		case <-quit:
		}
	}()
	return ctx, func() bool {
		close(quit)
		stopped := <-got
		cancel(nil)
		return stopped
	}
}

// toolsRunning reports whether a run has tools under way that an abort
// could let finish.
func toolsRunning(s contract.RunSnapshot) bool {
	if s.Phase != contract.PhaseAwaitingTools {
		return false
	}
	for _, p := range s.Pending {
		if p.State == contract.CallStarted || p.State == contract.CallDispatched {
			return true
		}
	}
	return false
}
