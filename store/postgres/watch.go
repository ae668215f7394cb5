package postgres

import (
	"context"
	"time"

	"github.com/batonrt/baton/store"
)

// probeEvery is how often the owner connection is asked whether it is
// alive while it holds locks: an owner learns within about this long, or
// ownerTimeout when the network went quiet, that its locks died with it.
const probeEvery = time.Second

// watcher probes the owner connection while this backend holds locks.
type watcher struct {
	stop chan struct{}
	done chan struct{}
}

// watch starts the watcher unless it runs; ownerMu is held.
func (b *Backend) watch() {
	if b.watcher != nil {
		return
	}
	w := &watcher{stop: make(chan struct{}), done: make(chan struct{})}
	b.watcher = w
	go b.probeUntil(w)
}

// unwatch stops the watcher when no lock is held any more, or always
// when all is set; ownerMu is held. The caller waits, without ownerMu,
// on the channel it returns, closed when the watcher has ended.
func (b *Backend) unwatch(all bool) <-chan struct{} {
	b.mu.Lock()
	idle := len(b.held) == 0
	b.mu.Unlock()
	w := b.watcher
	if w == nil || !(idle || all) {
		return nil
	}
	b.watcher = nil
	close(w.stop)
	return w.done
}

func (b *Backend) probeUntil(w *watcher) {
	defer close(w.done)
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		b.probe()
	}
}

// probe asks the owner connection a question of no cost and, when it
// does not answer within ownerTimeout, closes it, so that its locks are
// free and known to be lost rather than held by a connection no one can
// use; then it tells the holders of every lock held on a closed
// connection. A slow answer loses nothing.
func (b *Backend) probe() {
	b.ownerMu.Lock()
	defer b.ownerMu.Unlock()
	if b.owner != nil && !b.owner.IsClosed() {
		ctx, cancel := context.WithTimeout(context.Background(), ownerTimeout)
		if err := b.owner.Ping(ctx); err != nil {
			_ = b.owner.Close(ctx)
		}
		cancel()
	}
	b.loseDead()
}

// loseDead tells the holders of the locks held on a closed connection
// that they lost them; ownerMu is held. They stay held here, epoch and
// all, until released: the epoch still fences what they commit. The refs
// this owner saw are forgotten, since another owner may move them now.
func (b *Backend) loseDead() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for session, o := range b.held {
		if o.conn.IsClosed() {
			o.lose(errorf("store: lock %q: %w: the connection holding it ended", session, store.ErrLockLost))
			o.lost = true
			clear(o.refs)
			o.gen++
		}
	}
}

// heldLock is a lock Lock took: a store.LosableLock and a store.Leaver.
type heldLock struct {
	lost context.Context
	// release lets the lock go; withdraw says to clear the address
	// recorded with it, as a holder that lets it go on purpose does.
	release func(withdraw bool)
}

func (l *heldLock) Lost() context.Context { return l.lost }

func (l *heldLock) Close() error {
	l.release(true)
	return nil
}

// Leave lets the lock go but leaves the address recorded with it, as an
// owner that died does, so that the session is listed among the orphans
// and another process takes it up.
func (l *heldLock) Leave() error {
	l.release(false)
	return nil
}
