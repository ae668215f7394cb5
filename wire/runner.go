package wire

import (
	"context"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// Runner is what the handler drives for one thread. *conductor.Agent
// satisfies it through AgentRunner; tests and hosts may supply their own.
type Runner interface {
	// Submit drives input to the end of a run.
	Submit(ctx context.Context, input []contract.Turn) (contract.RunSnapshot, error)
	// Subscribe taps the live events. A subscriber that falls behind may
	// miss the run's own events, never a delegate's, and is told with an
	// EvLag event where they were, whose Seq is the newest it missed
	// (ledger's hub does this); a notice with Seq 0 has all the store has
	// after the stream's last event fetched.
	Subscribe(fn func(contract.RunEvent)) (unsubscribe func())
	// EventsSince returns committed events after seq, from the store.
	EventsSince(ctx context.Context, seq uint64) ([]contract.RunEvent, error)
	Snapshot() contract.RunSnapshot
	Close() error
}

// AgentRunner adapts a conductor agent.
func AgentRunner(a *conductor.Agent) Runner { return agentRunner{a} }

type agentRunner struct{ *conductor.Agent }

func (a agentRunner) Submit(ctx context.Context, input []contract.Turn) (contract.RunSnapshot, error) {
	return a.Agent.Submit(ctx, conductor.Input{Turns: input})
}

// FailedRunner is a Runner that says when it refuses all further work
// (its store refused a write: another process took its session over, or
// the store failed) until it is opened again: the handler then lets its
// thread go and opens it again from the store, or hands its requests to
// the process that drives it now. AgentRunner's runners are.
type FailedRunner interface {
	Runner
	Failed() error
}

// SteerRunner is a Runner whose run in flight takes a client's message
// as steering, as Agent.Submit does; a thread whose runner is not one
// refuses a message while its run is in flight. AgentRunner's runners
// are.
type SteerRunner interface {
	Runner
	// Steer hands input to the run in flight; conductor.ErrNoRun when
	// there is none. With ctx done before the run takes the input up,
	// nothing is steered and the error matches ctx's, as
	// conductor.Agent.Steer does: the handler passes the request's
	// context, so a client gone before its message was taken steers
	// nothing.
	Steer(ctx context.Context, input []contract.Turn) error
}

func (a agentRunner) Steer(ctx context.Context, input []contract.Turn) error {
	return a.Agent.Steer(ctx, conductor.Input{Turns: input})
}

// SubflowAsker is a Runner that tells what its delegated runs, at every
// depth, still wait on people for (see conductor.Agent.SubflowAsks).
// AgentRunner's runners are; a thread whose runner is not shows a
// delegated run's question only to streams that were open when it was
// asked, or were reopened since without a restart.
type SubflowAsker interface {
	SubflowAsks(ctx context.Context) ([]contract.RunEvent, error)
}

// PeopleWaiter is a Runner that tells whether its run in flight waits on
// nothing but people, its delegates' included (see
// conductor.Agent.WaitsOnlyForPeople). With ClientAnswers, a thread whose
// run waits on a delegate's question is then let go when idle, as one
// waiting on its own is. AgentRunner's runners are. With ctx done before
// the runner looks, it reports false and ctx's error.
type PeopleWaiter interface {
	WaitsOnlyForPeople(ctx context.Context) (bool, error)
}

// DelegatedEventer is a Runner that re-projects from the store the
// events of its delegated runs (see conductor.Agent.DelegatedEvents).
// AgentRunner's runners are; a thread whose runner is not shows what a
// delegate did only to streams of the thread as it was opened when it
// did, not after a restart.
type DelegatedEventer interface {
	DelegatedEvents(ctx context.Context, session string) ([]contract.RunEvent, error)
}
