package conductor

import (
	"context"
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// DelegatedEvents returns the committed events of a delegated run below
// the agent, at any depth, whose session is session (the Text of the
// subflow_started event that began it), re-projected from the store as
// EventsSince re-projects the agent's own, without a subflow path. The
// agent's session holds only its own events, and a child's reach its
// subscribers live only: an agent opened again (Resume, Reopen, a
// restarted host) learns what its delegates did before from here. None
// for a session not stored yet.
func (a *Agent) DelegatedEvents(ctx context.Context, session string) ([]contract.RunEvent, error) {
	if !contract.IsDelegatedSession(a.SessionID(), session) {
		return nil, fmt.Errorf("conductor: %q is not a delegated run of session %q", session, a.SessionID())
	}
	records, err := a.store.Records(ctx, session)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, contract.WrapError(contract.KindStore, err, "events of "+session)
	}
	return ReplayEvents(a.rules, session, records, 0)
}
