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
	// Approver answers approval requests. Without one every call that
	// needs approval is denied: nobody is there to ask. Hosts that answer
	// with Agent.Approve set ApproveLater.
	Approver Approver
	// Answerer answers questions the model asks a person; without one
	// the host answers with Agent.Answer.
	Answerer Answerer
	// Retriever, if set, is asked once per submit for context. When it
	// fails the run faults with kind retrieval, unless RetrieverOptional;
	// a Submit folded into a run in flight as steering instead returns a
	// retrieval error and that run goes on without its input.
	Retriever Retriever
	// RetrieverOptional lets a run go on without context when the
	// retriever fails; the failure is logged.
	RetrieverOptional bool
	// WorkDir is the session's working directory: tools read it with
	// dispatch.WorkDir, and project instructions are looked for from it.
	// It must be an existing folder; empty means none.
	WorkDir string
	// Instructions names project instruction files, such as AGENTS.md,
	// collected for each run from WorkDir (or the process's working
	// directory) up to the repository root and added to the system
	// prompt; see FindInstructions. Empty collects none.
	Instructions []string
	// Logger receives diagnostics; default silent.
	Logger *slog.Logger
	// Driver tunes model-call timeouts and retries.
	Driver turn.Options
	// Dispatch tunes the tool scheduler: timeouts, output cap, grace. Its
	// Limit is not used: the config's ToolConcurrency bounds the calls
	// running at once, applied by the rules.
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
	// Scope ScopeSession allowlists the request's keys for the rest of the
	// session: what the call does (the command names of a shell line, the
	// host of a URL), or the whole tool for a tool that derives no keys.
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
}

// Approver decides whether a call may run. It must return once ctx is
// done (the run was aborted or ended, or the call was answered some other
// way): a run is over only when its approvers have returned. An error or
// a panic denies the call, since an approval that cannot be asked is a
// denial; ErrApproveLater instead leaves the request pending for
// Agent.Approve.
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
