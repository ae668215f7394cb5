package wire

import "github.com/batonrt/baton/contract"

// following is the run a stream follows, and how the stream came to it:
// what the run's start and end mean for the stream.
type following struct {
	// run is the run whose end ends the stream; "" until the next run
	// to start, whose start names it.
	run string
	via arrival
}

// arrival is how a stream came to the run it follows.
type arrival int

const (
	// viaStart: the stream follows its run from where it joined it, and
	// the run's end ends the stream.
	viaStart arrival = iota
	// viaDecided: the run is the one a post's decisions resumed, whose
	// end does not end the stream: the run started after it, which the
	// post's message started or steered, follows in it (see
	// decidedFirst).
	viaDecided
	// viaLaggingLog: the run took a steered stream's message, though the
	// stream's log still has the run before it in flight (see carryOn):
	// until the run starts, the log's events, of the run before and of
	// its delegates, are projected, not shown.
	viaLaggingLog
)

// hides reports whether the stream projects ev without showing it: an
// event of a run before the one it follows, which its log still had in
// flight, or of that run's delegates. A delegate's events carry its own
// run's id, and come before its parent's end: until the followed run
// starts, every event is the run's before.
func (f following) hides(ev contract.RunEvent) bool {
	return f.via == viaLaggingLog && (len(ev.Subflow) > 0 || ev.RunID != f.run)
}

// passed moves f on past the committed event ev of the stream's own
// runs, and reports whether ev ends the stream.
func (f *following) passed(ev contract.RunEvent) (ends bool) {
	switch ev.Kind {
	case contract.EvRunStarted:
		if f.run == "" {
			f.run = ev.RunID
		}
		if ev.RunID == f.run {
			f.via = viaStart
		}
	case contract.EvRunSettled, contract.EvRunFaulted:
		if ev.RunID != f.run {
			return false
		}
		if f.via == viaDecided {
			*f = following{}
			return false
		}
		return true
	}
	return false
}
