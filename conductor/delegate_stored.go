package conductor

import (
	"context"
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// storedChildren are the delegate calls a run picked up again (Resume,
// Reopen) had handed out, by child session: an earlier process began
// their children, whose runs may be in flight in their sessions.
func storedChildren(pending []contract.PendingCall) map[string]contract.PendingCall {
	var out map[string]contract.PendingCall
	for _, p := range pending {
		if p.Subflow == "" || p.Tool.Delegate == "" {
			continue
		}
		switch p.State {
		case contract.CallDispatched, contract.CallStarted:
			if out == nil {
				out = map[string]contract.PendingCall{}
			}
			out[p.Subflow] = p
		}
	}
	return out
}

// endStoredChild ends the run in flight in the session of a delegate
// call's child that no agent of this process began: the run picked up
// again answered the call first (an abort recorded before the stop, say).
// Linked under that answer, the child's run would stay in flight for
// good, so it is aborted in its session, as a running child is (stop),
// and its own children with it. A child whose session holds no run in
// flight, or none at all, is left as it is. A delegate this agent's
// config no longer names still has its child ended, under the config
// the child's session recorded, or, when it recorded none, the step is
// refused (storedChildConfig).
func (a *Agent) endStoredChild(ctx context.Context, session, reason string) error {
	if a.run == nil {
		return nil
	}
	p, ok := a.run.stored[session]
	if !ok {
		return nil
	}
	switch _, err := a.store.Head(ctx, session); {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	cfg, err := a.storedChildConfig(ctx, session, p.Tool.Delegate)
	if err != nil {
		return err
	}
	ag, err := a.newChild(contract.StartDelegate{Call: p.Call, Delegate: p.Tool.Delegate, Session: session, Config: cfg})
	if err != nil {
		return err
	}
	err = ag.abortStored(ctx, session, reason)
	if cerr := ag.Close(); cerr != nil {
		a.log.Warn("conductor: close delegate", "session", session, "err", cerr)
	}
	return err
}

// storedChildConfig is the config a stored child is ended under: its
// delegate's, while this agent's config names it, else the last one the
// child's session recorded. A session that recorded none (as none did
// before runs recorded their config) has no config to end it under, nor
// to fold it by and learn whether its run is in flight: that is a config
// error, so the step that would link the child's run, maybe in flight
// for good under an answered call, is not recorded, and the host learns
// to resume the tree under a config that names the delegate.
func (a *Agent) storedChildConfig(ctx context.Context, session, delegate string) (contract.AgentConfig, error) {
	own := a.rules.Config()
	if d, ok := own.DelegateNamed(delegate); ok {
		return own.ChildConfig(d), nil
	}
	records, err := a.store.Records(ctx, session)
	if err != nil {
		return contract.AgentConfig{}, fmt.Errorf("conductor: config of %s: %w", session, err)
	}
	cfg := recordedConfig(records)
	if cfg == nil {
		return contract.AgentConfig{}, contract.NewError(contract.KindConfig, "delegate %q is no longer configured and its child session %q recorded no config to end its run under: resume under a config that names the delegate", delegate, session)
	}
	return *cfg, nil
}

// recordedConfig is the config the last run of records went on under,
// as the fold reads it (cadence.Rules.ForRecord): the newest one a submit
// or a resume recorded, at a newer revision a later resume without one
// recorded; nil when none was recorded.
func recordedConfig(records []contract.Record) *contract.AgentConfig {
	var cfg *contract.AgentConfig
	for _, rec := range records {
		switch sig := rec.Signal.(type) {
		case contract.Submitted:
			if sig.Config != nil {
				cfg = sig.Config
			}
		case contract.Resumed:
			switch {
			case sig.Config != nil:
				cfg = sig.Config
			case cfg != nil && sig.Revision > cfg.Revision && sig.Revision <= contract.CurrentRevision:
				c := *cfg
				c.Revision = sig.Revision
				cfg = &c
			}
		}
	}
	return cfg
}

// abortStored aborts the run in flight in the stored session, without
// picking it up first: nothing of it runs again. The abort is durable
// when it returns nil.
func (a *Agent) abortStored(ctx context.Context, session, reason string) error {
	w := make(chan *outcome, 1)
	return a.call(ctx, func() error {
		if err := a.lockSession(ctx, session); err != nil {
			return err
		}
		snap, err := store.Resume(ctx, a.store, a.rules, session)
		if err != nil {
			return contract.WrapError(contract.KindStore, err, "resume "+session)
		}
		if !snap.Phase.InFlight() {
			a.hold()
			a.state = snap
			a.show()
			return nil
		}
		_, err = a.pickUp(snap, a.deps.Tools.Box, w, contract.AbortRequested{Mode: contract.AbortNow, Reason: reason, At: a.now()})
		return err
	})
}
