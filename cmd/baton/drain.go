package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/batonrt/baton/wire"
)

// notifyTerm returns a context the first SIGTERM ends and a channel the
// second closes; stop lets go of the signal.
func notifyTerm() (termed context.Context, again <-chan struct{}, stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	termed, cancel := context.WithCancel(context.Background())
	second := make(chan struct{})
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-sigs:
			cancel()
		case <-quit:
			return
		}
		select {
		case <-sigs:
			close(second)
		case <-quit:
		}
	}()
	return termed, second, func() {
		signal.Stop(sigs)
		close(quit)
		<-done
		cancel()
	}
}

// drain shuts the server down for a restart (wire.Handler.Drain): it
// takes no new work, and the runs in flight have cfg.drainTimeout to end;
// those still in flight then, or when a second SIGTERM or Ctrl-C (ctx)
// comes first, are left in flight in the store, and their clients'
// reconnects find them going on wherever the thread is opened next.
func (a *app) drain(ctx context.Context, h *wire.Handler, cfg serveConfig) error {
	fmt.Fprintf(a.stderr, "baton: draining: no new runs; runs in flight have %s to end, then are left to go on after a restart\n", cfg.drainTimeout)
	dctx, cancel := context.WithTimeout(context.Background(), cfg.drainTimeout)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	go func() {
		select {
		case <-cfg.termedAgain:
			cancel()
		case <-dctx.Done():
		}
	}()
	err := h.Drain(dctx)
	if dctx.Err() != nil {
		fmt.Fprintln(a.stderr, "baton: runs still in flight are left in the store for a restarted server to resume")
	}
	return err
}

// closedChan reports whether ch, which may be nil, is closed.
func closedChan(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
