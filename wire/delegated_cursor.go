package wire

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// delegatedAt is the event of a delegated run a Last-Event-ID names
// after its own run's event: "session:seq" or "session:seq.delta", the
// session percent-encoded. An NDJSON client sees every event of a
// delegate, its deltas too, and names one by what the event says of
// itself: a session numbers its own events, and (seq, delta) orders
// them.
type delegatedAt struct {
	session string
	seq     uint64
	delta   uint32
}

// maxDelegatedAt bounds the delegated part of a Last-Event-ID: a
// session id whose every byte is escaped, a seq and a delta.
const maxDelegatedAt = 3*contract.MaxSessionID + 32

// parseDelegatedAt parses the part of a Last-Event-ID after "+" that
// names a delegated run's event (see delegatedAt).
func parseDelegatedAt(s string) (*delegatedAt, error) {
	bad := errors.New("wire: a Last-Event-ID's delegated event must be \"session:seq\" or \"session:seq.delta\", the session percent-encoded")
	escaped, at, ok := strings.Cut(s, ":")
	if !ok || len(s) > maxDelegatedAt {
		return nil, bad
	}
	session, err := url.PathUnescape(escaped)
	if err != nil || session == "" {
		return nil, bad
	}
	seq, delta, hasDelta := strings.Cut(at, ".")
	d := &delegatedAt{session: session}
	if d.seq, err = strconv.ParseUint(seq, 10, 64); err != nil {
		return nil, bad
	}
	if hasDelta {
		n, err := strconv.ParseUint(delta, 10, 32)
		if err != nil || n == 0 {
			return nil, bad
		}
		d.delta = uint32(n)
	}
	return d, nil
}

// after is the position in events just past the event d names, looked
// for among the delegated events from from, the position just past the
// event of the stream's own run the id names, up to the next of its own:
// the client had them all. A stream re-projected from the store lacks a
// delegate's deltas: a delta d names is then taken for the newest event
// of its session before it, which the rest of its model call, its
// stored reply, follows. None of its session's there leaves the client
// at from.
func (d delegatedAt) after(events []contract.RunEvent, from int) int {
	n := from
	for i := from; i < len(events); i++ {
		ev := events[i]
		switch {
		case len(ev.Subflow) == 0 && ev.Kind == contract.EvLag:
			continue
		case len(ev.Subflow) == 0:
			return n
		case ev.SessionID != d.session || ev.Kind == contract.EvSignalRejected:
			continue
		case ev.Seq == d.seq && ev.Delta == d.delta:
			return i + 1
		case ev.Seq > d.seq || (ev.Seq == d.seq && ev.Delta > d.delta):
			return n
		}
		n = i + 1
	}
	return n
}

// reconnected is the id a stream resumed from last, by a client that
// stands at n in events, goes on from (agui.Projector.Reconnected):
// last, unless it names a delegated event (in), which AG-UI ids name as
// the id of the stream's own run's event before it and "+k", k counting
// the delegated runs' stored events since (see agui.Projector).
func (c cursor) reconnected(last string, events []contract.RunEvent, n int) string {
	if c.in == nil {
		return last
	}
	id, _, _ := strings.Cut(last, "+")
	own, exact := c.findOwn(events)
	if !exact || n < own {
		return id
	}
	k := 0
	for _, ev := range events[own:n] {
		if len(ev.Subflow) > 0 && track.Stored(ev) {
			k++
		}
	}
	if k == 0 {
		return id
	}
	return id + "+" + strconv.Itoa(k)
}
