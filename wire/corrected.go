package wire

import (
	"slices"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
)

// corrected follows out, the AG-UI events of the turn_completed at seq
// whose model call left the client holding other messages than the
// session (agui.Projector.Diverged), with a MESSAGES_SNAPSHOT of what the
// session holds up to it, which takes the rest off the client. The
// snapshot carries the turn's SSE id: a client that has the id has the
// correction. Its own input taken after seq or still queued is kept
// (agui.Session). A store that cannot be read leaves the client with
// what the events gave it, which holds the stored turn whole.
func (s *streamer) corrected(out []agui.Event, seq uint64) []agui.Event {
	if s.t.r == nil || len(out) == 0 {
		return out
	}
	// Read before the events: input applied in between is in them.
	queued := s.t.r.Snapshot().Queued
	stored, err := s.t.r.EventsSince(s.ctx, 0)
	if err != nil {
		return out
	}
	cut := slices.IndexFunc(stored, func(ev contract.RunEvent) bool { return ev.Seq > seq })
	if cut < 0 {
		cut = len(stored)
	}
	sess := agui.Session{Had: stored[:cut], Later: stored[cut:], Queued: queued}
	last := &out[len(out)-1]
	snap := agui.Event{Type: agui.MessagesSnapshot, Messages: sess.Messages(s.t.id), Timestamp: last.Timestamp, ID: last.ID}
	last.ID = ""
	return append(out, snap)
}
