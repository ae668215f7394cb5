package conductor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// Deps are the agent's collaborators, grouped by side. Only
// Model.Provider is required; every other zero value works: no tools, no
// people (approvals denied, questions left to Agent.Answer), no
// retriever, an in-memory store on a new session.
type Deps struct {
	Model     Model
	Tools     Tools
	People    People
	Retrieval Retrieval
	Env       Env
	Hooks     Hooks
}

// Model is the model side: who answers model calls and how each call is
// timed and retried. Zero durations and counts take turn's defaults
// (turn.DefaultFirstChunkTimeout and the rest); a negative timeout
// switches that timeout off.
type Model struct {
	// Provider answers model calls. Required.
	Provider turn.Provider
	// Delegates gives delegates, by name, a provider of their own; the
	// others use Provider.
	Delegates map[string]turn.Provider
	// FirstChunkTimeout, IdleTimeout and TotalTimeout bound a call's
	// first chunk, the silence between chunks, and the whole call with
	// its retries.
	FirstChunkTimeout, IdleTimeout, TotalTimeout time.Duration
	// MaxRetries is how many attempts follow a retryable failure;
	// turn.NoRetries makes one attempt only.
	MaxRetries int
	// Backoff is the wait before the first retry, doubling per retry up
	// to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// MaxRetryWait bounds one wait between attempts, a server's
	// Retry-After included: a server asking for longer fails the call at
	// once. RetryBudget bounds a call's waits added up. Zero takes
	// turn.DefaultMaxRetryWait and turn.DefaultRetryBudget; negative, no
	// bound.
	MaxRetryWait, RetryBudget time.Duration
	// TextToolCalls reads a reply whose whole text is one JSON tool call
	// as that call, for weak and local models; see turn.Options.
	TextToolCalls bool
	// WaitingAfter, when positive, publishes a waiting event each time a
	// call has streamed nothing for that long.
	WaitingAfter time.Duration
	// NoFallback keeps a streaming call that failed before its first
	// chunk from being retried without streaming.
	NoFallback bool
}

// Tools is the tool side. The box is the one place a host declares
// tools: the config's Tools, when set, only choose among them by name,
// and the agent offers each with the box's own descriptor.
type Tools struct {
	// Box implements and describes the tools; nil means none. When the
	// config names no tools the agent offers every tool in the box.
	Box *dispatch.ToolBox
	// OutputCap bounds a call's output in bytes; default
	// dispatch.DefaultOutputCap. CreateAgent refuses one over
	// store.MaxNode, as no store could record such an output.
	OutputCap int
	// Grace is how long a timed-out or cancelled tool may take to wind
	// down; default dispatch.DefaultGrace. A call's timeout is its
	// descriptor's, or the config's ToolTimeout.
	Grace time.Duration
}

// People are the people in the loop.
type People struct {
	// Approver answers approval requests. Without one every call that
	// needs approval is denied: nobody is there to ask. Hosts that answer
	// with Agent.Approve set ApproveLater.
	Approver Approver
	// Answerer answers questions the model asks a person; without one
	// the host answers with Agent.Answer.
	Answerer Answerer
}

// Retrieval adds context to each submit.
type Retrieval struct {
	// Retriever, if set, is asked once per submit for context. When it
	// fails the run faults with kind retrieval, unless Optional; a Submit
	// folded into a run in flight as steering instead returns a
	// retrieval error and that run goes on without its input.
	Retriever Retriever
	// Optional lets a run go on without context when the retriever
	// fails; the failure is logged.
	Optional bool
}

// Env is where the agent runs.
type Env struct {
	// Store keeps the session; default an in-memory store.
	Store store.Store
	// SessionID names the session; default a new id from IDs.
	SessionID string
	// WorkDir is the session's working directory: tools read it with
	// dispatch.WorkDir, and project instructions are looked for from it.
	// It must be an existing folder; empty means none.
	WorkDir string
	// Instructions names project instruction files, such as AGENTS.md,
	// collected for each run from WorkDir (or the process's working
	// directory) up to the repository root and added to the system
	// prompt; see FindInstructions. Empty collects none.
	Instructions []string
	// Clock tells the time; default the system clock.
	Clock Clock
	// IDs makes ids; default RandomIDs.
	IDs IDSource
	// Logger receives diagnostics; default silent.
	Logger *slog.Logger
	// EventBuffer is each subscriber's queue length; default 1024.
	EventBuffer int
}

// driverOptions are the turn driver's options for m, stamped by now and
// logging to log.
func (m Model) driverOptions(now func() contract.Timestamp, log *slog.Logger) turn.Options {
	return turn.Options{
		FirstChunkTimeout: m.FirstChunkTimeout, IdleTimeout: m.IdleTimeout, TotalTimeout: m.TotalTimeout,
		MaxRetries: m.MaxRetries, BaseBackoff: m.Backoff, MaxBackoff: m.MaxBackoff,
		MaxRetryWait: m.MaxRetryWait, RetryBudget: m.RetryBudget,
		TextToolCalls: m.TextToolCalls, WaitingAfter: m.WaitingAfter, NoFallback: m.NoFallback,
		Now: now, Logger: log,
	}
}

// Clock tells the time. Only the conductor reads it; signals carry it.
type Clock interface{ Now() time.Time }

// IDSource makes ids for sessions, runs and tool calls.
type IDSource interface{ NewID(prefix string) string }

// Decision answers an approval request.
type Decision struct {
	Approved bool
	// Scope ScopeSession allowlists the request's keys for the rest of the
	// session: what the call does (the command names of a shell line, the
	// host of a URL), or the whole tool for a tool that derives no keys.
	// Empty is ScopeOnce; any other scope is refused (an Approver's
	// denies the call).
	Scope  contract.ApprovalScope
	Reason string
}

// ApprovalRequest is a call waiting for approval.
type ApprovalRequest struct {
	Call contract.ToolCall
	Tool contract.ToolDescriptor
	// Keys are what approving it for the session allowlists: tool:key
	// entries (shell:ls, http:example.com), or the tool's name.
	Keys []string
	// RunID and Turn name the model reply that made the call (Turn is
	// the run's RunSnapshot.Turns then): a call id is unique within one
	// reply only, so a decision given later (CallDecision) names them to
	// reach this call and no other of the same id.
	RunID string
	Turn  int
	// Subflow is the path of delegate call ids from the agent the host
	// made to the run that asks, as that run's events carry it; nil for
	// the agent's own run. Its Approver is asked for its delegates'
	// calls too, and call ids repeat across runs, so a decision given
	// later goes to ApproveCalls with this path.
	Subflow []string
}

// Approver decides whether a call may run. It must return once ctx is
// done (the run was aborted or ended, or the call was answered some other
// way): a run is over only when its approvers have returned. An error or
// a panic denies the call, since an approval that cannot be asked is a
// denial; ErrApproveLater instead leaves the request pending for
// Agent.Approve. Approvers that return at once have their decisions
// applied together, each call's own before an approval for the session,
// so a call a person denied is not allowed by an "always" on another.
type Approver func(ctx context.Context, req ApprovalRequest) (Decision, error)

// ErrApproveLater, returned by an Approver, leaves the request pending
// for Agent.Approve.
var ErrApproveLater = errors.New("conductor: approval left to Agent.Approve")

// ApproveLater is the Approver of hosts whose people answer approval
// requests out of band (a web page, a chat) with Agent.Approve, maybe
// after a restart: every request waits.
func ApproveLater(context.Context, ApprovalRequest) (Decision, error) {
	return Decision{}, ErrApproveLater
}

// Retriever returns context turns for a submit's input. What it returns
// is recorded inside the submit, so replay needs no retriever.
type Retriever func(ctx context.Context, input []contract.Turn) ([]contract.Turn, error)

// SystemClock is the wall clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// FixedClock starts at a fixed instant and advances by Step on every
// read, so tests get the same timestamps every run.
type FixedClock struct {
	Start time.Time
	Step  time.Duration
	n     atomic.Int64
}

// Now returns Start plus Step times the number of earlier reads.
func (c *FixedClock) Now() time.Time {
	n := c.n.Add(1) - 1
	return c.Start.Add(time.Duration(n) * c.Step)
}

// RandomIDs makes 16-hex-digit random ids with a prefix.
type RandomIDs struct{}

// NewID returns prefix_ and 16 random hex digits.
func (RandomIDs) NewID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + "_" + hex.EncodeToString(b[:])
}

// CountingIDs makes prefix_1, prefix_2, ... : deterministic ids for tests.
type CountingIDs struct{ n atomic.Int64 }

// NewID returns prefix_ and the next count.
func (c *CountingIDs) NewID(prefix string) string {
	return fmt.Sprintf("%s_%d", prefix, c.n.Add(1))
}
