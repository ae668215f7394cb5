package turn

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// errWatchdog is the cancel cause of an attempt whose stream went quiet.
var errWatchdog = errors.New("turn: stream went quiet")

// watchdog cancels an attempt when the first chunk or the next one takes
// too long. One timer serves both waits; fed re-arms it per chunk.
type watchdog struct {
	t     *time.Timer
	idle  time.Duration
	first atomic.Bool
}

func newWatchdog(first, idle time.Duration, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{idle: idle}
	w.first.Store(true)
	if first < 0 && idle < 0 {
		return w
	}
	wait := first
	if wait < 0 {
		wait = time.Duration(1<<63 - 1)
	}
	w.t = time.AfterFunc(wait, func() {
		if w.first.Load() {
			cancel(fmt.Errorf("%w: no first chunk within %s", errWatchdog, first))
			return
		}
		cancel(fmt.Errorf("%w: no chunk for %s", errWatchdog, idle))
	})
	return w
}

func (w *watchdog) fed() {
	if w.t == nil {
		return
	}
	w.first.Store(false)
	if w.idle < 0 {
		w.t.Stop()
		return
	}
	w.t.Reset(w.idle)
}

func (w *watchdog) stop() {
	if w.t != nil {
		w.t.Stop()
	}
}
