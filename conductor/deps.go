package conductor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// Deps are the agent's collaborators. Only Provider is required; every
// other field has an embedded default.
type Deps struct {
	// Provider answers model calls. Required.
	Provider turn.Provider
	// Tools implements the tools; when AgentConfig.Tools is empty the
	// agent offers every tool in the box.
	Tools *dispatch.ToolBox
	// Store keeps the session; default an in-memory store.
	Store store.Store
	// SessionID names the session; default a new id from IDs.
	SessionID string
	Clock     Clock
	IDs       IDSource
	Hooks     Hooks
	// Approver answers approval requests; without one the host answers
	// with Agent.Approve.
	Approver Approver
	// Answerer answers questions the model asks a person; without one
	// the host answers with Agent.Answer.
	Answerer Answerer
	// Retriever, if set, is asked once per submit for context. When it
	// fails the run faults with kind retrieval, unless RetrieverOptional.
	Retriever Retriever
	// RetrieverOptional lets a run go on without context when the
	// retriever fails; the failure is logged.
	RetrieverOptional bool
	// Logger receives diagnostics; default silent.
	Logger *slog.Logger
	// Driver tunes model-call timeouts and retries.
	Driver turn.Options
	// Dispatch tunes the tool scheduler (its Limit defaults to the
	// config's ToolConcurrency).
	Dispatch dispatch.Options
	// EventBuffer is each subscriber's queue length; default 1024.
	EventBuffer int
	// DelegateProviders gives delegates, by name, a provider of their
	// own; the others use Provider.
	DelegateProviders map[string]turn.Provider
}

// Clock tells the time. Only the conductor reads it; signals carry it.
type Clock interface{ Now() time.Time }

// IDSource makes ids for sessions, runs and tool calls.
type IDSource interface{ NewID(prefix string) string }

// Decision answers an approval request.
type Decision struct {
	Approved bool
	// Scope ScopeSession allowlists the tool for the rest of the session.
	Scope  contract.ApprovalScope
	Reason string
}

// Approver decides whether a call may run. An error leaves the request
// pending for Agent.Approve. It must return once ctx is done (the run was
// aborted or ended): a run is over only when its approvers have returned.
type Approver func(ctx context.Context, call contract.ToolCall, tool contract.ToolDescriptor) (Decision, error)

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
