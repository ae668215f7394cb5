package wire

import (
	"context"
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// withDelegated returns stored, the thread's events from the store before
// its log, with what its delegates' runs did that neither stored nor
// logged holds: the events the store keeps of each, from its session
// (DelegatedEventer), at every depth. The thread's store holds only its
// own session's events and a delegate's reach the log only live, so once
// the thread was opened again (a restart, a thread let go and opened
// again) they are nowhere else. Only the last run of stored is looked
// at, and only until the log holds two runs of its own, as it keeps
// them: the runs before ended before the log's, and what a client
// still in them misses of their delegates is what a stream too slow
// for the log misses. They go where the live stream had them (see
// interleave), so that a client's id names the same event in both.
func (t *thread) withDelegated(ctx context.Context, stored, logged []contract.RunEvent) ([]contract.RunEvent, error) {
	de, ok := t.r.(DelegatedEventer)
	runs := 0
	for _, ev := range logged {
		if ev.Kind == contract.EvRunStarted && len(ev.Subflow) == 0 {
			runs++
		}
	}
	if !ok || runs >= 2 {
		return stored, nil
	}
	have := map[string]bool{}
	for _, ev := range stored {
		if len(ev.Subflow) > 0 && track.Stored(ev) {
			have[track.StoredKey(ev)] = true
		}
	}
	// A run the log has events of goes on in it from the oldest: what its
	// session holds from there on, some stored since the log was read,
	// comes in the log, after what the log has.
	logFrom := map[string]uint64{}
	for _, ev := range slices.Backward(logged) {
		if len(ev.Subflow) > 0 && track.Stored(ev) {
			logFrom[ev.SessionID] = ev.Seq
		}
	}
	last := 0
	for i, ev := range stored {
		if ev.Kind == contract.EvRunStarted && len(ev.Subflow) == 0 {
			last = i
		}
	}
	all, err := missingDelegated(ctx, de, []delegatedRun{{events: stored[last:]}}, have, logFrom)
	if err != nil || len(all) == 1 {
		return stored, err
	}
	return append(slices.Clip(stored[:last]), interleave(all)...), nil
}

// missingDelegated returns runs, then each run their events began, at
// every depth, with the events the store keeps of it that are not in
// have, which takes them, nor at or after the Seq logFrom has for its
// session.
func missingDelegated(ctx context.Context, de DelegatedEventer, runs []delegatedRun, have map[string]bool, logFrom map[string]uint64) ([]delegatedRun, error) {
	all := runs
	for i := 0; i < len(all); i++ {
		for _, ev := range all[i].events {
			if ev.Kind != contract.EvSubflowStarted || ev.Call == nil || ev.Text == "" {
				continue
			}
			child, err := de.DelegatedEvents(ctx, ev.Text)
			if err != nil {
				return nil, err
			}
			path := append(slices.Clone(ev.Subflow), ev.Call.ID)
			run := delegatedRun{session: ev.Text}
			for _, c := range child {
				c.Subflow = append(slices.Clone(path), c.Subflow...)
				// Those the log has stay there, and so do those of the
				// runs they began: the log has them from their start.
				if from, ok := logFrom[c.SessionID]; ok && c.Seq >= from {
					continue
				}
				if key := track.StoredKey(c); !have[key] {
					have[key] = true
					run.events = append(run.events, c)
				}
			}
			if len(run.events) > 0 {
				all = append(all, run)
			}
		}
	}
	return all, nil
}

// delegatedRun is the events, in order, of one run for interleave: the
// thread's own (no session), or a delegated run's, begun already when
// its subflow_started is not among them.
type delegatedRun struct {
	session string
	events  []contract.RunEvent
	begun   bool
}

// interleave merges the runs' events as the live stream had them: each
// run's in its order, a delegated run's once the subflow_started that
// began it is in and before the event that ends its call in the run
// above (the call's result, its subflow's end), and otherwise by the
// time they were stamped, the thread's own run first at a tie (runs that
// run at once interleave their events, and a delegated frame's id counts
// from the thread's own event before it). A parent stamps its call's end
// before its child stamps its own when it is aborted, though the child's
// is published first. A run whose start is not among them goes last.
func interleave(runs []delegatedRun) []contract.RunEvent {
	began := map[string]bool{}
	next := make([]int, len(runs))
	byCall := map[string][]int{}
	for i, r := range runs {
		if i > 0 && len(r.events) > 0 && len(r.events[0].Subflow) > 0 {
			path := r.events[0].Subflow
			key := callKey(path[:len(path)-1], path[len(path)-1])
			byCall[key] = append(byCall[key], i)
		}
	}
	// waits reports whether ev ends the call of a run begun and not
	// merged whole.
	waits := func(ev contract.RunEvent) bool {
		if ev.Call == nil || (ev.Kind != contract.EvToolResult && ev.Kind != contract.EvSubflowCompleted && ev.Kind != contract.EvSubflowFailed) {
			return false
		}
		for _, j := range byCall[callKey(ev.Subflow, ev.Call.ID)] {
			if next[j] < len(runs[j].events) && (runs[j].begun || began[runs[j].session]) {
				return true
			}
		}
		return false
	}
	var out []contract.RunEvent
	for {
		pick := -1
		for i, r := range runs {
			if next[i] == len(r.events) || (i > 0 && !r.begun && !began[r.session]) || waits(r.events[next[i]]) {
				continue
			}
			if pick < 0 || r.events[next[i]].At < runs[pick].events[next[pick]].At {
				pick = i
			}
		}
		if pick < 0 {
			break
		}
		ev := runs[pick].events[next[pick]]
		next[pick]++
		if ev.Kind == contract.EvSubflowStarted {
			began[ev.Text] = true
		}
		out = append(out, ev)
	}
	for i, r := range runs {
		out = append(out, r.events[next[i]:]...)
	}
	return out
}

// callKey names the call id of a run at the subflow path.
func callKey(path []string, id string) string {
	return strings.Join(append(slices.Clip(path), id), "/")
}
