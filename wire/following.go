package wire

import "github.com/batonrt/baton/contract"

// following is the run a stream follows, and how the stream came to it:
// what the start and end of runs mean for the stream.
type following struct {
	// run is the run whose end ends the stream; "" until the next run
	// to start past after, whose start names it.
	run   string
	after uint64
	via   arrival
	// then is what the stream follows once run ends, when via is
	// viaDecided: the stream's ids name it (see chainID).
	then *following
}

// arrival is how a stream came to the run it follows.
type arrival int

const (
	// viaStart: the stream follows its run from where it joined it, and
	// the run's end ends the stream.
	viaStart arrival = iota
	// viaDecided: the run's end does not end the stream: the run the
	// post's message started or steered follows in it (then). The run is
	// the one a post's decisions resumed (see decidedFirst), or the one
	// its steer found, which may have taken the message and ended before
	// the steer returned (see steeredAfter).
	viaDecided
	// viaStarting: the run has yet to start in the stream's log, which
	// may still have runs before it that are not the client's: the run
	// before the one that took a steered stream's message, which the log
	// still had in flight (see carryOn), the run before the one a post's
	// message starts, whose delegate's last events the log may not have
	// had when the post claimed the thread, or runs other clients started
	// and ended before a post's message could start its own (see
	// decidedFirst). Until the run starts, the log's events, of those
	// runs and of their delegates, are projected, not shown.
	viaStarting
)

// starts reports whether ev starts the run f follows.
func (f following) starts(ev contract.RunEvent) bool {
	if ev.Kind != contract.EvRunStarted || len(ev.Subflow) > 0 {
		return false
	}
	if f.run == "" {
		return ev.Seq > f.after
	}
	return ev.RunID == f.run
}

// hides reports whether the stream projects ev without showing it: an
// event before the start of the run it follows, of runs that are not
// its client's or of their delegates, whose events carry their own runs'
// ids.
func (f following) hides(ev contract.RunEvent) bool {
	return f.via == viaStarting && !f.starts(ev)
}

// passed moves f on past the committed event ev of the stream's own
// runs, and reports whether ev ends the stream.
func (f *following) passed(ev contract.RunEvent) (ends bool) {
	switch ev.Kind {
	case contract.EvRunStarted:
		if f.starts(ev) {
			f.run, f.via = ev.RunID, viaStart
		}
	case contract.EvRunSettled, contract.EvRunFaulted:
		if ev.RunID != f.run {
			return false
		}
		if f.via == viaDecided {
			*f = *f.then
			return false
		}
		return true
	}
	return false
}
