package conductor

import (
	"slices"

	"github.com/batonrt/baton/contract"
)

// The agent's steps change its snapshot's pending calls in place
// (cadence.Scratch.PendingInPlace) rather than copy them on every tool
// result, so a.state shares its Pending with no other snapshot: the one
// hosts read (a.snap) holds a copy in a buffer of its own, and every
// snapshot handed out holds a copy of its own.

// show makes the agent's state, durable now, the one hosts read.
//
//go:noinline
func (a *Agent) show() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.snap = a.state
	a.snap.Pending = a.copyShown(a.state.Pending)
}

// copyShown copies pending into the buffer a.snap's pending calls live
// in, which only Snapshot and restore read, each copying it: nil when
// there are none, as a snapshot's own would be. Called with a.mu held.
func (a *Agent) copyShown(pending []contract.PendingCall) []contract.PendingCall {
	if len(pending) == 0 {
		// What the buffer held of an earlier batch is let go.
		clear(a.shown)
		a.shown = a.shown[:0]
		return nil
	}
	a.shown = append(a.shown[:0], pending...)
	return a.shown
}

// restore goes back to the state hosts read, the last durable one.
//
//go:noinline
func (a *Agent) restore() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.state = ownPending(a.snap)
}

// handedOut is the agent's state as a snapshot of its own, for a waiter
// or a hook.
func (a *Agent) handedOut() contract.RunSnapshot { return ownPending(a.state) }

// ownPending is s with pending calls of its own.
func ownPending(s contract.RunSnapshot) contract.RunSnapshot {
	s.Pending = slices.Clone(s.Pending)
	return s
}
