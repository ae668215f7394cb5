package wire

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
)

// chainMark separates, in the SSE id of a chained stream's event (see
// decidedFirst), the event's own id from what the stream follows next:
// "seq@r<run>" when that is a named run, "seq@a<seq>" when it is the
// first run to start past seq. A client that resumes from such an id
// gets the rest of the chain, as the stream it lost would have shown
// it; the ids of unchained streams carry no mark. The own id's parts
// ("seq.delta:mark+n", see cursor) hold no '@'.
const chainMark = "@"

// maxChain bounds the chain part of a Last-Event-ID.
const maxChain = 300

// chainID is id with what the stream follows once the run it shows
// ends, when that is not the stream's end: the ids of a chained stream
// name the chain's rest until its last run starts.
func (s *streamer) chainID(id string) string {
	if id == "" || !s.chained {
		return id
	}
	next := s.follows
	switch next.via {
	case viaStart:
		return id
	case viaDecided:
		next = *next.then
	}
	return id + chainOf(next)
}

// chainOf is the mark an id carries of next, the run a chained stream
// follows once the run it shows ends.
func chainOf(next following) string {
	if next.run != "" {
		return chainMark + "r" + url.QueryEscape(next.run)
	}
	return chainMark + "a" + strconv.FormatUint(next.after, 10)
}

// chainHeader is, on a chained NDJSON stream, the chain mark its ids
// would carry until the chain's last run starts (see chainID): baton's
// events name themselves by seq and delta alone, so a client resuming
// the stream from one of them appends the mark to its id. The stream a
// client resumes with a mark says it again.
const chainHeader = "Baton-Chain"

// announceChain names, on a chained NDJSON stream, what it follows once
// the run it shows ends (chainHeader). It is called before the stream
// writes anything.
func (s *streamer) announceChain(next following) {
	if s.nd != nil {
		s.header.Set(chainHeader, chainOf(next))
	}
}

// reached reports whether a client that had events had the start of
// the run next names: it stands in the chain's last run, or past it, and
// its stream goes on as an unchained one. A client resuming a chained
// NDJSON stream carries the stream's mark whatever run its id is of.
func (next following) reached(events []contract.RunEvent) bool {
	return slices.ContainsFunc(events, next.starts)
}

// parseChain splits a Last-Event-ID into the event's own id and, when
// it came from a chained stream (see chainID), what that stream was to
// follow next.
func parseChain(s string) (string, *following, error) {
	id, chain, ok := strings.Cut(s, chainMark)
	if !ok {
		return s, nil, nil
	}
	bad := errors.New("wire: a Last-Event-ID's chain must be \"r\" and a run id or \"a\" and a seq")
	if len(chain) > maxChain || len(chain) < 2 {
		return "", nil, bad
	}
	next := following{via: viaStarting}
	switch chain[0] {
	case 'r':
		run, err := url.QueryUnescape(chain[1:])
		if err != nil || run == "" {
			return "", nil, bad
		}
		next.run = run
	case 'a':
		after, err := strconv.ParseUint(chain[1:], 10, 64)
		if err != nil {
			return "", nil, bad
		}
		next.after = after
	default:
		return "", nil, bad
	}
	return id, &next, nil
}

// resumedFollowing is what a stream resumed from a client's id follows:
// the run the client stands in (id, or the last it saw end when not
// running), and, when the id came from a chained stream, what that
// stream followed after it (next), as the stream the client lost did.
func resumedFollowing(id string, running bool, next *following) following {
	switch {
	case next == nil, running && id == next.run:
		return following{run: id}
	case running:
		return following{run: id, via: viaDecided, then: next}
	}
	// The client had the end of the chain's first run: what follows in
	// the log before the chain's next run starts is not the client's.
	return *next
}
