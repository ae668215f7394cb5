package conductor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// delegateTimeout bounds a child run as a call of its parent. A child is
// already bounded by its own turn cap and its tools' timeouts; this only
// keeps the scheduler's default tool timeout from cutting it short.
const delegateTimeout = 24 * time.Hour

// child is one delegate call's child run, from the moment the call is
// handed out. Its agent exists once the child run has begun.
type child struct {
	callID  string
	session string
	// decided is closed once the child run has begun, or once it never
	// will: its call was answered first, or did not run (decide).
	decided chan struct{}
	once    sync.Once

	mu      sync.Mutex
	stopped bool
	agent   *Agent
	usage   contract.Usage
	// allowed is the child session's allowlist at its run's end, for
	// the parent to keep.
	allowed []string
}

// stop keeps a child from beginning and aborts one that has, for reason:
// the parent answered its call, so nothing more of the child may happen.
// It returns once the child's abort is durable, or the store failure
// that stopped the child short of it: its run is then left in flight in
// its session.
func (c *child) stop(reason string) error {
	c.mu.Lock()
	c.stopped = true
	ag := c.agent
	c.mu.Unlock()
	if ag == nil {
		return nil
	}
	_ = ag.call(context.Background(), func() error {
		if ag.run == nil {
			return nil
		}
		return ag.abortNow(contract.AbortNow, reason)
	})
	if failed := ag.Failed(); failed != nil {
		return failed
	}
	return nil
}

// decide closes decided; it may be called more than once.
func (c *child) decide() { c.once.Do(func() { close(c.decided) }) }

// begun returns the child's agent once it is known whether the child
// run begins, waiting for that (nil: it never did). A run picked up again
// (Resume, Reopen) begins its children a moment after it returns, and a
// person's answer or decision for one of them given at once is held
// until the child can take it. Beginning needs nothing of the parent's
// loop, so the loop may wait for it.
func (c *child) begun() *Agent {
	<-c.decided
	return c.running()
}

func (c *child) running() *Agent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.agent
}

// forwardEvent is publish for a delegate's child. Not inlined: the copy
// of the event it passes would take room in publish's frame, which is
// under every streamed delta.
//
//go:noinline
func (a *Agent) forwardEvent(ev *contract.RunEvent) { a.forward(*ev) }

// persistLinked appends the record of a step that answered delegate
// calls, linking the heads of their children's chains, each child
// stopped first so its head is final. A child the store stopped short of
// its end fails the step: linked, its run would stay in flight for good
// under an answered call, while unrecorded, the step leaves the call
// unanswered for whoever resumes the tree.
func (a *Agent) persistLinked(e *contract.Persist) error {
	ctx := context.Background()
	reason := stopReason(e.Record.Signal)
	var links []store.Hash
	for _, session := range e.Links {
		begun := false
		if a.run != nil {
			if c := a.run.children[session]; c != nil {
				if err := c.stop(reason); err != nil {
					return fmt.Errorf("child %s: %w", session, err)
				}
				begun = c.running() != nil
			}
		}
		if !begun {
			if err := a.endStoredChild(ctx, session, reason); err != nil {
				return fmt.Errorf("child %s: %w", session, err)
			}
		}
		head, err := a.store.Head(ctx, session)
		if errors.Is(err, store.ErrNotFound) {
			continue // the child never began
		}
		if err != nil {
			return fmt.Errorf("child %s: %w", session, err)
		}
		links = append(links, head)
	}
	if len(links) == 0 {
		_, err := a.store.Append(ctx, a.state.SessionID, e.Record)
		return err
	}
	_, err := a.store.AppendLinked(ctx, a.state.SessionID, e.Record, links...)
	return err
}

// stopReason is why the children of the delegate calls that sig answers
// are stopped: the abort's own reason, so that a child's session says
// why its parent's run ended (its host's context, the agent closed), as
// the parent's does. Other answers are given once the child has ended.
func stopReason(sig contract.Signal) string {
	if abort, ok := sig.(contract.AbortRequested); ok && abort.Reason != "" {
		return abort.Reason
	}
	return "aborted by host"
}

// startDelegate runs a delegate call's child as a call on the scheduler,
// so it is cancelled like a tool; the rules count it against the tool
// concurrency limit, and the step that emitted it is its start record.
func (a *Agent) startDelegate(e contract.StartDelegate) {
	run := a.run
	c := &child{callID: e.Call.ID, session: e.Session, decided: make(chan struct{})}
	if run.children == nil {
		run.children = map[string]*child{}
	}
	run.children[e.Session] = c
	if e.Delegate == "" {
		// A call picked up again (Resume, Reopen) whose delegate the
		// agent's config no longer names: the rules found no delegate for
		// it, so it is answered as such a call is when the model makes it,
		// and its stored child, which never begins here, is ended as the
		// answer is recorded (endStoredChild).
		c.decide()
		a.later(run, contract.DelegateSettled{CallID: e.Call.ID, Session: e.Session, Outcome: contract.ToolOutcome{Content: "error: " + e.Call.Name + " names no delegate of this agent", IsError: true}, At: a.now()})
		return
	}
	desc := contract.ToolDescriptor{Name: e.Call.Name, Idempotent: true, Timeout: delegateTimeout}
	tool, err := dispatch.NewTool(desc, func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		if a.deps.Hooks.Len() == 0 {
			return a.runChild(ctx, run, e, c), nil
		}
		// The tool hooks guard a delegate call as any other: a before
		// hook that blocks it (or fails) keeps the child from beginning,
		// and after hooks see the child's answer. The task was fixed by
		// the rules, so a rewrite of it is not taken. Until the hooks
		// pass the child has not begun: said at once, so that the loop,
		// which may ask (Close), never waits on a hook, which may wait
		// on the run's end. A child whose session is stored began, so
		// the hooks passed its call then: it is picked up again (Resume,
		// Reopen) unscreened, and Close and answers wait for it, as for
		// any child about to begin.
		switch _, err := a.store.Head(ctx, e.Session); {
		case err == nil:
			out, _ := a.runAfterTool(ctx, e.Call, a.runChild(ctx, run, e, c))
			return out, nil
		case !errors.Is(err, store.ErrNotFound):
			c.decide()
			return a.notBegun(ctx, run, e, childStoreError(e, err)), nil
		}
		c.decide()
		if _, reason, _ := a.runBeforeTool(ctx, e.Call); reason != "" {
			return contract.ToolOutcome{Content: "error: blocked: " + reason, IsError: true}, nil
		}
		out, _ := a.runAfterTool(ctx, e.Call, a.runChild(ctx, run, e, c))
		return out, nil
	})
	if err != nil {
		c.decide()
		a.later(run, a.delegateFailed(e, err))
		return
	}
	job := dispatch.Job{
		Call:      e.Call,
		Tool:      tool,
		SessionID: a.state.SessionID,
		RunID:     a.state.RunID,
		Done: func(o dispatch.Outcome) {
			c.decide() // the call ended, maybe before the child began
			c.mu.Lock()
			usage, allowed := c.usage, c.allowed
			c.mu.Unlock()
			out := o.Outcome
			out.Content = validText(out.Content)
			a.send(run, func() {
				if a.state.Revision < contract.RevisionAllowTree {
					// Rules before it keep no child's allowances: the
					// record stays as those revisions wrote it.
					allowed = nil
				}
				a.apply(contract.DelegateSettled{CallID: e.Call.ID, Session: e.Session, Outcome: out, Usage: usage, Allowed: allowed, At: a.now()})
			})
		},
	}
	if err := a.sched.Dispatch(run.ctx, job); err != nil {
		c.decide()
		a.later(run, a.delegateFailed(e, err))
	}
}

// delegateFailed answers a delegate call whose child could not be
// started, stamped by the agent's clock as the child's answer would be.
func (a *Agent) delegateFailed(e contract.StartDelegate, err error) contract.DelegateSettled {
	return contract.DelegateSettled{CallID: e.Call.ID, Session: e.Session, Outcome: contract.ToolOutcome{Content: "error: delegate " + e.Delegate + ": " + err.Error(), IsError: true}, At: a.now()}
}

// runChild drives the child run to its end and returns its final answer,
// or its error as an error outcome for the parent's model. A child that
// stopped on a store failure, its lock lost or a record refused, ends the
// parent's run too (see childFailed).
func (a *Agent) runChild(ctx context.Context, run *runState, e contract.StartDelegate, c *child) contract.ToolOutcome {
	fail := func(format string, args ...any) contract.ToolOutcome {
		return contract.ToolOutcome{Content: "error: delegate " + e.Delegate + ": " + fmt.Sprintf(format, args...), IsError: true}
	}
	ag, childRun, w, err := a.beginChild(ctx, e, c)
	if err != nil {
		return a.notBegun(ctx, run, e, err)
	}
	ag.releaseOffers()
	a.shareBegun(run, ag)
	if a.abortedAfterTools(run) {
		// The abort came before the child began (a hook held its call),
		// so Abort could not pass it on: a child that asked a person
		// nobody answers would keep the parent's run in flight for good.
		_ = ag.Abort(context.WithoutCancel(ctx), contract.AbortAfterTools)
	}
	defer func() {
		if err := ag.Close(); err != nil {
			a.log.Warn("conductor: close delegate", "session", e.Session, "err", err)
		}
	}()
	o := ag.wait(ctx, childRun, w, true)
	snap, err := o.snap, o.err
	if failed := ag.Failed(); failed != nil {
		a.childFailed(run, failed)
	}
	c.mu.Lock()
	c.usage = snap.RunUsage
	c.allowed = snap.Allowed
	c.mu.Unlock()
	switch {
	case snap.Phase == contract.PhaseSettled:
		return contract.ToolOutcome{Content: finalAnswer(snap)}
	case snap.Err != nil:
		// The parent's model reads this, its session keeps it and its
		// clients are shown it: a failed model call's upstream URL and
		// credentials stay in the child's own fault only.
		return fail("failed: %s", redact.Error(snap.Err.Error()))
	case err != nil:
		return fail("%v", err)
	}
	return fail("ended in phase %s", snap.Phase)
}

// abortedAfterTools reports whether run, this agent's, is aborted after
// its tools, as its published state shows it. Abort records that before
// it passes the abort on to the children that have begun, and a child
// is known to have begun before it reads this, so each child that
// begins hears the abort once at least.
func (a *Agent) abortedAfterTools(run *runState) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	snap := a.durable()
	return snap.RunID == run.id && snap.Abort == contract.AbortAfterTools
}

// notBegun is the outcome of a delegate call whose child could not begin
// (err). When the store stopped it (unreadable, or the child's session
// held by another driver), the parent's run stops too (childFailed): the
// child may have a stored run in flight, which the call's error result
// would leave unfinished for good. A call cancelled meanwhile is over
// anyway, and its failure no store's.
func (a *Agent) notBegun(ctx context.Context, run *runState, e contract.StartDelegate, err error) contract.ToolOutcome {
	if errors.Is(err, contract.ErrStore) && ctx.Err() == nil {
		a.childFailed(run, err)
	}
	return contract.ToolOutcome{Content: "error: delegate " + e.Delegate + ": " + err.Error(), IsError: true}
}

// childStoreError is err, from looking up the child's session, as a
// store error.
func childStoreError(e contract.StartDelegate, err error) error {
	return contract.WrapError(contract.KindStore, err, "delegate session "+e.Session)
}

// finalAnswer is the text of the child's last assistant turn.
func finalAnswer(s contract.RunSnapshot) string {
	turns := s.History.Turns()
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].Role == contract.RoleAssistant {
			if text := turns[i].Text(); text != "" {
				return text
			}
			break
		}
	}
	return "(the delegate gave no text answer)"
}

var errChildStopped = errors.New("the call was answered before the child began")

// beginChild makes the child agent and starts its run: the task submitted
// on a new session, or, when the session is stored (a resumed parent),
// that session resumed so the child finishes where it stopped.
//
// It holds c's lock while the child's first step is done on this
// goroutine, so the child's offers are held until it has begun (its
// first step takes its parent's allowlist, and offers it back): an offer
// delivered here would do its parent's tasks on this goroutine, and a
// task that looks the child up (an allowance passed on, an abort
// stopping it) would wait for the lock held below it, or for decided.
func (a *Agent) beginChild(ctx context.Context, e contract.StartDelegate, c *child) (*Agent, *runState, chan *outcome, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.decide()
	if c.stopped {
		return nil, nil, nil, errChildStopped
	}
	ag, err := a.newChild(e)
	if err != nil {
		return nil, nil, nil, err
	}
	_, err = a.store.Head(ctx, e.Session)
	stored := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		_ = ag.Close()
		return nil, nil, nil, childStoreError(e, err)
	}
	w := make(chan *outcome, 1)
	var run *runState
	allowed := a.allowedAtBegin(e.Allowed)
	err = ag.call(ctx, func() error {
		if stored {
			var err error
			run, err = ag.resumeOnLoop(ctx, e.Session, w, nil)
			return err
		}
		if err := ag.lockSession(ctx, e.Session); err != nil {
			return err
		}
		in := Text(e.Task)
		err := ag.startRun(ctx, &submission{input: in.turns(ag.est), allowed: allowed}, w)
		run = ag.run
		return err
	})
	if err != nil {
		_ = ag.Close()
		return nil, nil, nil, err
	}
	c.agent = ag
	return ag, run, w, nil
}

// newChild makes the agent for a delegate call: the delegate's config one
// level deeper, its own tools from the parent's box, its own provider when
// the host gave one, and everything else shared with the parent.
func (a *Agent) newChild(e contract.StartDelegate) (*Agent, error) {
	var tools []dispatch.Tool
	for _, d := range e.Config.Tools {
		t, ok := a.toolSource.Lookup(d.Name)
		if !ok {
			return nil, fmt.Errorf("tool %q has no implementation", d.Name)
		}
		tools = append(tools, t)
	}
	box, err := dispatch.NewToolBox(tools...)
	if err != nil {
		return nil, err
	}
	deps := a.deps
	deps.Tools.Box = box
	deps.Env.SessionID = e.Session
	deps.Retrieval = Retrieval{}
	if p, ok := a.deps.Model.Delegates[e.Delegate]; ok {
		deps.Model.Provider = p
	}
	// The child's own delegates keep the providers given for them.
	names := map[string]bool{}
	delegateNames(e.Config.Delegates, names)
	deps.Model.Delegates = nil
	for name, p := range a.deps.Model.Delegates {
		if names[name] {
			if deps.Model.Delegates == nil {
				deps.Model.Delegates = map[string]turn.Provider{}
			}
			deps.Model.Delegates[name] = p
		}
	}
	ag, err := createAgent(e.Config, deps, a.toolSource)
	if err != nil {
		return nil, err
	}
	ag.parent = a
	ag.holdOffers = true
	ag.path = append(slices.Clone(a.path), e.Call.ID)
	ag.forward = func(ev contract.RunEvent) {
		ev.Subflow = append([]string{e.Call.ID}, ev.Subflow...)
		a.publish(&ev)
	}
	return ag, nil
}
