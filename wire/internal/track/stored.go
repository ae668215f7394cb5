package track

import (
	"strconv"

	"github.com/batonrt/baton/contract"
)

// Stored reports whether the store re-projects ev (EventsSince, and a
// delegated run's DelegatedEvents): a committed event, not a delta, a
// retry notice, a pulse, a detach, a lag notice or a rejected signal,
// which reach the live stream only. A delegated run's frames are counted
// by their stored events alone, so that a stream re-projected from the
// store numbers them as the live one did.
func Stored(ev contract.RunEvent) bool {
	if ev.Delta > 0 {
		return false
	}
	switch ev.Kind {
	case contract.EvTextDelta, contract.EvThinkingDelta, contract.EvToolCallDelta, contract.EvModelRetry,
		contract.EvWaiting, contract.EvRunDetached, contract.EvLag, contract.EvSignalRejected:
		return false
	}
	return true
}

// StoredKey names a delegated run's stored event among all the stream's:
// a session numbers its own events.
func StoredKey(ev contract.RunEvent) string {
	return ev.SessionID + " " + string(ev.Kind) + " " + strconv.FormatUint(ev.Seq, 10)
}
