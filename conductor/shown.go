package conductor

import (
	"slices"
	"sync"

	"github.com/batonrt/baton/contract"
)

// The agent keeps one snapshot, a.state, which hosts read too (Snapshot)
// whenever it is durable. A step moves a.state before its record is
// durable, so for that while the durable state is held apart (hold), in
// a buffer taken from a pool: only agents between a step and its
// persist hold one, rather than every agent keeping a second snapshot
// (half a KiB) and a copy of its pending calls for as long as it lives.
// The agent's steps change its snapshot's pending calls in place
// (cadence.Scratch.PendingInPlace), so the held state keeps a copy of
// its own, and every snapshot handed out holds a copy of its own.

// heldState is a durable state held apart while the agent's state moves
// on ahead of it.
type heldState struct {
	snap    contract.RunSnapshot
	pending []contract.PendingCall
}

var heldStates = sync.Pool{New: func() any { return new(heldState) }}

// hold keeps the agent's state, durable now, apart for hosts and for
// restore, before the state moves on; it reports whether it took the
// hold, false when one is taken already (the state before it is the
// durable one). Only the closure running calls it.
//
//go:noinline
func (a *Agent) hold() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.held != nil {
		return false
	}
	h := heldStates.Get().(*heldState)
	h.snap = a.state
	h.pending = append(h.pending[:0], a.state.Pending...)
	h.snap.Pending = nil
	if len(h.pending) > 0 {
		h.snap.Pending = h.pending
	}
	a.held = h
	return true
}

// show makes the agent's state, durable now, the one hosts read.
//
//go:noinline
func (a *Agent) show() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.release()
}

// release lets the held state go: it no longer holds any run's history
// or calls alive in the pool. Called with a.mu held.
func (a *Agent) release() {
	h := a.held
	if h == nil {
		return
	}
	a.held = nil
	h.snap = contract.RunSnapshot{}
	clear(h.pending)
	h.pending = h.pending[:0]
	heldStates.Put(h)
}

// restore goes back to the state hosts read, the last durable one; with
// none held, the state is that one already.
//
//go:noinline
func (a *Agent) restore() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.held == nil {
		return
	}
	a.state = ownPending(a.held.snap)
	a.release()
}

// durable is the durable state, for reading only. Called with a.mu
// held.
func (a *Agent) durable() *contract.RunSnapshot {
	if a.held != nil {
		return &a.held.snap
	}
	return &a.state
}

// handedOut is the agent's state as a snapshot of its own, for a waiter
// or a hook.
func (a *Agent) handedOut() contract.RunSnapshot { return ownPending(a.state) }

// ownPending is s with pending calls of its own.
func ownPending(s contract.RunSnapshot) contract.RunSnapshot {
	s.Pending = slices.Clone(s.Pending)
	return s
}
