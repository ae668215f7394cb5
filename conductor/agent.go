package conductor

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/ledger"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// Errors hosts branch on.
var (
	// ErrClosed: the agent was closed.
	ErrClosed = errors.New("conductor: agent closed")
	// ErrNoRun: the call needs a run in flight and there is none.
	ErrNoRun = errors.New("conductor: no run in flight")
	// ErrBusy: the call needs the agent idle and a run is in flight.
	ErrBusy = errors.New("conductor: a run is in flight")
	// ErrRejected: the runtime's rules refused the input; the error says why.
	ErrRejected = errors.New("conductor: rejected")
)

// Agent drives one session. Its methods are safe for concurrent use.
type Agent struct {
	// rules holds the agent's config too (Config): a run keeps one copy.
	rules  *cadence.Rules
	deps   Deps
	log    *slog.Logger
	driver *turn.Driver
	sched  *dispatch.Scheduler
	hub    *ledger.Hub
	store  store.Store
	// recorder is store when it can take a record without naming its
	// node at once (store.Recorder), which persist then does.
	recorder store.Recorder

	// Closures that touch the state below run one at a time (enqueue).
	qmu      sync.Mutex
	queue    []task
	qhead    int // the next task to do in queue
	draining bool
	// holdOffers keeps the offers of a delegate's child in the agent
	// until it has begun (see beginChild).
	holdOffers bool
	// shut is set once Close has had its turn: offers are dropped and
	// count no more workers (takeOffer).
	shut bool

	quit    chan struct{}
	closing sync.Once
	workers sync.WaitGroup

	mu sync.Mutex
	// held is the durable state while a.state has moved on ahead of it
	// (see hold), nil when a.state is durable.
	held *heldState
	// shownFailed is failed, for Failed.
	shownFailed error

	// forward, set on a delegate's child agent, takes its events to the
	// parent's stream instead of its own hub; parent is that agent, set
	// with forward and never nil beside it (watched walks it).
	forward func(contract.RunEvent)
	parent  *Agent
	// path is the subflow path of delegate call ids from the root agent to
	// this one, as its events reach the root's subscribers.
	path []string
	// toolSource implements the tools of delegates at every depth: the
	// root agent's Deps.Tools.Box.
	toolSource *dispatch.ToolBox
	// output vets final answers against the config's output schema.
	output *outputCheck
	// est counts tokens as the config's revision does (estimator), found
	// once for the agent's every input, reply and result.
	est compactor.Estimator

	// Owned by the closure running (enqueue), which writes state only
	// with a.mu held or while the durable state is held apart (hold):
	// Snapshot reads it, with a.mu held, when it is durable.
	state   contract.RunSnapshot
	run     *runState
	failed  error
	closed  bool
	backlog []task
	// offers are tasks for other agents of the delegation tree, handed
	// to them once this agent's turn is over (see offer).
	offers []offer
	record [1]contract.Record // see persist
	// claiming is set while a claim is applied (applyFirst).
	claiming bool
	// response is what the provider said of the reply being applied,
	// for its turn_completed event; never recorded.
	response turn.Response

	// lease is the session's lock while the agent holds it, and
	// unwatchLease stops waiting for its loss (see lockSession); owned
	// by the closure running too.
	lease        *store.Lease
	unwatchLease func() bool
}

// runState is what the agent keeps about the run in flight.
type runState struct {
	id     string
	ctx    context.Context
	cancel context.CancelFunc
	// modelCtx is the context of the run's model calls, modelCancel
	// cancels the one in flight (see modelContext).
	modelCtx    context.Context
	modelCancel context.CancelFunc
	// deltas gates the current model call's streaming events; it is shut
	// when the call is cancelled or the run ends, so no delta follows the
	// events that end it.
	deltas *deltaGate
	// box holds the run's tools: the agent's and the run's own. It is
	// read by model calls' workers and swapped in turn (SetRunTools);
	// former are the boxes it replaced, for the calls made before.
	box     atomic.Pointer[dispatch.ToolBox]
	former  []*dispatch.ToolBox
	waiters []chan *outcome
	// children are the run's delegate calls handed out, by child session
	// (nil until the first).
	children map[string]*child
	// stored are the delegate calls handed out before the run was
	// picked up again, by child session (see storedChildren).
	stored map[string]contract.PendingCall
	// wg counts the workers the run started; host hands a job to a
	// caller waiting for the run, and crew leaves one for a worker about
	// to be free (spawn), calls helper to take it, or hands it to a
	// worker waiting for one.
	wg     sync.WaitGroup
	host   chan hosted
	crew   crew
	helper helper
	// toolDone answers the run's calls without hooks (see toolDone).
	toolDone func(dispatch.Outcome)
	toolHere func(dispatch.Taken) bool
	// asks cancel the approvers and answerers asked about each call.
	asks map[string]context.CancelFunc
	// handedIn are the approvers' decisions not applied yet.
	handedIn handedIn
}

type outcome struct {
	snap contract.RunSnapshot
	err  error
}

// CreateAgent validates cfg and deps and returns an idle agent on a new
// session. Every problem is reported at once, as a RunError of kind
// config naming each bad field.
func CreateAgent(cfg contract.AgentConfig, deps Deps) (*Agent, error) {
	return createAgent(cfg, deps, nil)
}

// createAgent is CreateAgent for an agent whose delegates, at every
// depth, take their tools from source: a delegate's child is given only
// its own tools, and its delegates' tools come from the root's box. A nil
// source is deps' box, as for a root agent.
func createAgent(cfg contract.AgentConfig, deps Deps, source *dispatch.ToolBox) (*Agent, error) {
	if fe := cfg.DelegateTreeError(); fe != nil {
		// Every other check would unroll the tree this one refuses.
		return nil, &contract.RunError{Kind: contract.KindConfig, Message: "invalid agent", Fields: []contract.FieldError{*fe}}
	}
	var bad []contract.FieldError
	if deps.Model.Provider == nil {
		bad = append(bad, contract.FieldError{Field: "Deps.Model.Provider", Reason: "is nil"})
	}
	box := deps.Tools.Box
	if box == nil {
		box, _ = dispatch.NewToolBox()
	}
	var toolsBad []contract.FieldError
	cfg.Tools, toolsBad = offeredTools(cfg.Tools, box, "Tools", true)
	bad = append(bad, toolsBad...)
	if id := deps.Env.SessionID; len(id) > store.MaxSessionID || !utf8.ValidString(id) {
		bad = append(bad, contract.FieldError{Field: "Deps.Env.SessionID", Reason: fmt.Sprintf("must be valid UTF-8 of at most %d bytes", store.MaxSessionID)})
	}
	if source == nil {
		source = box
	}
	var delegateBad []contract.FieldError
	declared := cfg.Delegates
	cfg.Delegates, delegateBad = resolveDelegates(cfg, source, "Delegates")
	bad = append(bad, delegateBad...)
	bad = append(bad, delegateErrors(declared, deps)...)
	bad = append(bad, providerErrors(cfg, deps.Model.Provider, deps.Model.Delegates, "")...)
	if dir := deps.Env.WorkDir; dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			bad = append(bad, contract.FieldError{Field: "Deps.Env.WorkDir", Reason: fmt.Sprintf("%q is not an existing folder", dir)})
		}
	}
	if c := deps.Tools.OutputCap; c > store.MaxNode {
		// An output the cap lets through but no node holds would fail
		// the run midway, at the record of its result.
		bad = append(bad, contract.FieldError{Field: "Deps.Tools.OutputCap", Reason: fmt.Sprintf("is %d bytes, over the %d bytes a store takes in one node (store.MaxNode)", c, store.MaxNode)})
	}
	if deps.Env.EventBuffer < 0 {
		bad = append(bad, contract.FieldError{Field: "Deps.Env.EventBuffer", Reason: "must not be negative"})
	}
	if cfg.Revision == 0 {
		cfg.Revision = contract.CurrentRevision
	}
	if err := cfg.Validate(); err != nil {
		re, _ := contract.AsRunError(err)
		bad = append(bad, re.Fields...)
	}
	output, err := newOutputCheck(cfg.Output)
	if err != nil {
		bad = append(bad, contract.FieldError{Field: "Output.Schema", Reason: "is not a usable JSON Schema: " + err.Error()})
	}
	if len(bad) > 0 {
		return nil, &contract.RunError{Kind: contract.KindConfig, Message: "invalid agent", Fields: bad}
	}
	cfg = cfg.WithDefaults()
	deps = withDefaults(deps, box)
	a := &Agent{
		rules:  cadence.New(cfg),
		deps:   deps,
		log:    deps.Env.Logger,
		store:  deps.Env.Store,
		hub:    ledger.NewHub(ledger.Options{Buffer: deps.Env.EventBuffer, Logger: deps.Env.Logger}),
		quit:   make(chan struct{}),
		output: output,
	}
	a.toolSource = source
	a.recorder, _ = a.store.(store.Recorder)
	// The rules decide which calls run (ToolConcurrency, sequential
	// tools): the scheduler starts each call it is handed at once.
	a.sched = dispatch.NewScheduler(dispatch.Options{Limit: -1, DefaultTimeout: cfg.ToolTimeout,
		OutputCap: deps.Tools.OutputCap, Grace: deps.Tools.Grace, Logger: deps.Env.Logger})
	opts := deps.Model.driverOptions(a.now, deps.Env.Logger)
	a.est = estimator(cfg)
	// The turn driver counts a model reply's tokens on the worker that
	// received the reply, and the count rides in the signal, so neither
	// the agent's loop nor a later replay or resume tokenizes the reply.
	opts.Estimate = a.est.Turn
	a.driver = turn.NewDriver(deps.Model.Provider, opts)
	a.state = cadence.InitialSnapshot(deps.Env.SessionID)
	return a, nil
}

// silent is the logger of agents given none.
var silent = slog.New(slog.DiscardHandler)

func withDefaults(d Deps, box *dispatch.ToolBox) Deps {
	d.Tools.Box = box
	e := &d.Env
	if e.Store == nil {
		e.Store = store.NewMemory()
	}
	if e.Clock == nil {
		e.Clock = SystemClock{}
	}
	if e.IDs == nil {
		e.IDs = RandomIDs{}
	}
	if e.Logger == nil {
		e.Logger = silent
	}
	if e.SessionID == "" {
		e.SessionID = e.IDs.NewID("session")
	}
	return d
}

func (a *Agent) now() contract.Timestamp { return contract.TimestampOf(a.deps.Env.Clock.Now()) }

// Config returns the config the agent runs under: defaults filled in and
// each tool as the box describes it. These are the rules its sessions
// replay under (cadence.New).
func (a *Agent) Config() contract.AgentConfig { return a.rules.Config() }

// Failed returns the store failure that ended the agent's last run and
// makes it refuse further work (store.ErrLockLost when the agent lost
// its session's lock: the run in flight is ended as soon as the store
// tells it so, before another process taking the session over runs it),
// until Resume or Reopen; nil when there is none. A host that keeps agents open lets such an agent go, and opens
// the session again, rather than hand it more work. A record refused
// before any of the session is the agent's (a new session's first
// submit, a resume's record) fails only the call that made it, which
// returns the store's error: there is nothing to resume.
func (a *Agent) Failed() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.shownFailed
}

// SessionID names the agent's current session.
func (a *Agent) SessionID() string { return a.Snapshot().SessionID }

// Snapshot returns the newest committed state.
func (a *Agent) Snapshot() contract.RunSnapshot {
	a.mu.Lock()
	defer a.mu.Unlock()
	return ownPending(*a.durable())
}

// Subscribe calls fn with every event, in order, on a goroutine of its
// own. A slow fn never stalls the run: past its buffer it misses events
// of the run's own (never text, a run's end, an ask or a delegate's
// events) and is then told how many with a lag event, whose Seq is the
// newest it missed: EventsSince brings them back. A panicking fn is
// logged and unsubscribed.
func (a *Agent) Subscribe(fn func(contract.RunEvent)) (unsubscribe func()) {
	return a.hub.Subscribe(fn)
}

// Flush waits until every event published so far has reached every
// subscriber: its fn has returned for it, or for the lag notice or merged
// delta standing for it. Submit returns when the run is committed, which
// can be a moment before a subscriber has seen the run's last events;
// a host that must see them before going on calls Flush after Submit. It
// returns ctx's error if a subscriber does not catch up before ctx ends,
// which a subscriber calling Flush itself never does: it would wait for
// its own fn to return.
func (a *Agent) Flush(ctx context.Context) error {
	return a.hub.Flush(ctx)
}

// Events taps the event stream from the moment it is called, so events
// published before the range loop starts are not lost, and yields them
// until ctx is done, the loop stops, or the agent closes. The sequence is
// single-use: ranging it again yields nothing and returns at once. Like
// any subscriber it has a bounded buffer and is told with a lag event
// what it missed if it falls behind.
func (a *Agent) Events(ctx context.Context) iter.Seq[contract.RunEvent] {
	ch := make(chan contract.RunEvent, 64)
	// stopped ends a hand-off to a loop that has stopped: unsubscribing
	// does not wake a delivery already waiting for room in ch.
	stopped := make(chan struct{})
	stop := sync.OnceFunc(func() { close(stopped) })
	unsubscribe := a.hub.Subscribe(func(ev contract.RunEvent) {
		select {
		case ch <- ev:
		case <-ctx.Done():
		case <-a.quit:
		case <-stopped:
		}
	})
	stopWatching := context.AfterFunc(ctx, unsubscribe)
	// A range after the first finds the tap gone: it returns at once
	// rather than wait for events that no longer come.
	var ranged atomic.Bool
	return func(yield func(contract.RunEvent) bool) {
		if ranged.Swap(true) {
			return
		}
		defer stopWatching()
		defer unsubscribe()
		defer stop()
		for {
			select {
			case ev := <-ch:
				if !yield(ev) {
					return
				}
			case <-ctx.Done():
				return
			case <-a.quit:
				return
			}
		}
	}
}
