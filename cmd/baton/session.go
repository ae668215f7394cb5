package main

import (
	"context"
	"fmt"
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
	tools    []dispatch.Tool
	prompt   string
	json     bool
	yes      bool
	// contextWindow overrides the default context size when positive.
	contextWindow int
	clock         conductor.Clock
	ids           conductor.IDSource
}

// drive runs one prompt to the end of its run, streaming the events.
func (a *app) drive(ctx context.Context, spec driveSpec) (contract.RunSnapshot, error) {
	box, err := dispatch.NewToolBox(spec.tools...)
	if err != nil {
		return contract.RunSnapshot{}, err
	}
	done := make(chan struct{})
	defer close(done)
	deps := conductor.Deps{Provider: spec.provider, Tools: box, Store: spec.store, SessionID: spec.sessionID, Clock: spec.clock, IDs: spec.ids}
	var con *console
	if a.interactive && !spec.yes {
		con = &console{prompts: a.stderr, lines: readLines(done, a.stdin)}
		deps.Approver = con.approve
	} else {
		deps.Approver = autoApprover(spec.yes)
	}
	cfg := baseConfig(spec.model)
	cfg.Compaction.ContextWindow = spec.contextWindow
	agent, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		return contract.RunSnapshot{}, err
	}
	defer agent.Close()
	if spec.existing {
		if _, err := agent.Resume(ctx, spec.sessionID); err != nil {
			return agent.Snapshot(), fmt.Errorf("go on with session %q: %w", spec.sessionID, err)
		}
	}
	p := newPrinter(a.stdout, spec.json, a.tty)
	unsubscribe := agent.Subscribe(p.event)
	if con != nil {
		con.steer = func(line string) {
			if err := agent.Steer(conductor.Text(line)); err != nil {
				fmt.Fprintf(a.stderr, "baton: steer: %v\n", err)
			}
		}
		rctx, cancel := context.WithCancel(ctx)
		routed := make(chan struct{})
		go func() { defer close(routed); con.route(rctx) }()
		defer func() { cancel(); <-routed }()
	}
	stop := a.watchInterrupts(agent)
	snap, err := agent.Submit(ctx, conductor.Input{Text: spec.prompt, Tools: spec.tools})
	stop()
	p.wait(2 * time.Second)
	unsubscribe()
	p.close()
	return snap, err
}

// watchInterrupts turns the first Ctrl-C into an abort after the running
// tools finish and the second into an abort at once.
func (a *app) watchInterrupts(agent *conductor.Agent) (stop func()) {
	if a.interrupts == nil {
		return func() {}
	}
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for n := 0; ; n++ {
			select {
			case <-quit:
				return
			case <-a.interrupts:
			}
			mode := contract.AbortAfterTools
			msg := "\nbaton: stopping after the running tools (Ctrl-C again to stop now)"
			if n > 0 {
				mode, msg = contract.AbortNow, "\nbaton: stopping now"
			}
			fmt.Fprintln(a.stderr, msg)
			if err := agent.Abort(mode); err != nil {
				fmt.Fprintf(a.stderr, "baton: abort: %v\n", err)
			}
		}
	}()
	return func() { close(quit); <-finished }
}
