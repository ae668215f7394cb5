package wire

import (
	"context"
	"maps"
	"slices"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// shownDelegated marks a delegated run's stored event as shown, and
// reports whether it, or a later one of its session, was already.
func (s *streamer) shownDelegated(ev contract.RunEvent) bool {
	if len(ev.Subflow) == 0 || !track.Stored(ev) {
		return false
	}
	if seq, ok := s.delegated[ev.SessionID]; ok && ev.Seq <= seq {
		return true
	}
	if s.delegated == nil {
		s.delegated = map[string]uint64{}
	}
	s.delegated[ev.SessionID] = ev.Seq
	return false
}

// trackDelegated keeps the delegated runs the stream saw begin and not
// end.
func (s *streamer) trackDelegated(ev contract.RunEvent) {
	if ev.Call == nil || ev.Text == "" {
		return
	}
	switch ev.Kind {
	case contract.EvSubflowStarted:
		if s.open == nil {
			s.open = map[string][]string{}
		}
		s.open[ev.Text] = append(slices.Clone(ev.Subflow), ev.Call.ID)
	case contract.EvSubflowCompleted, contract.EvSubflowFailed:
		delete(s.open, ev.Text)
	}
}

// withDelegated returns events, which the stream missed and which were
// read from the store, with what the delegated runs did meanwhile, from
// their sessions (DelegatedEventer): the runs the stream saw begin and
// not end, and those events begin. A stream the log let go of (see
// follow) has them nowhere else.
func (s *streamer) withDelegated(ctx context.Context, events []contract.RunEvent) ([]contract.RunEvent, error) {
	de, ok := s.t.r.(DelegatedEventer)
	if !ok {
		return events, nil
	}
	runs := []delegatedRun{{events: events}}
	have := map[string]bool{}
	for _, session := range slices.Sorted(maps.Keys(s.open)) {
		child, err := de.DelegatedEvents(ctx, session)
		if err != nil {
			return nil, err
		}
		run := delegatedRun{session: session, begun: true}
		for _, c := range child {
			c.Subflow = append(slices.Clone(s.open[session]), c.Subflow...)
			have[track.StoredKey(c)] = true
			if c.Seq > s.delegated[session] {
				run.events = append(run.events, c)
			}
		}
		runs = append(runs, run)
	}
	all, err := missingDelegated(ctx, de, runs, have, nil)
	if err != nil {
		return nil, err
	}
	return interleave(all), nil
}
