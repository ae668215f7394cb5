package store

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/batonrt/baton/store/vfs"
)

// groupSync makes the frames that sessions sharing one file system wrote
// durable together. A commit that finds no flush under way syncs its own
// file at once, so one session alone pays what an fdatasync costs. Commits
// that arrive while a flush is under way gather in a round, and when the
// flush ends the round's first member flushes the file system once for
// all of them (syncfs on Linux) instead of one fdatasync each. A failed
// flush falls back to each file's own sync, which says which file failed;
// one the file system cannot make (Linux before 5.8, whose syncfs does
// not report write-back errors) turns the grouping off.
type groupSync struct {
	fs  interface{ Flush() error }
	off atomic.Bool // the file system cannot flush: each commit syncs its own file

	mu      sync.Mutex
	running bool   // a sync or flush is under way
	open    *round // commits waiting for the next flush
}

// round is the commits that one flush makes durable.
type round struct {
	files []vfs.File
	errs  []error
	start chan struct{} // closed when the flush before this one ended
	done  chan struct{} // closed when this round's flush ended
}

func newGroupSync(fs interface{ Flush() error }) *groupSync { return &groupSync{fs: fs} }

// sync makes what was written to file durable.
func (g *groupSync) sync(file vfs.File) error {
	if g.off.Load() {
		return file.Sync()
	}
	g.mu.Lock()
	if !g.running {
		g.running = true
		g.mu.Unlock()
		err := file.Sync()
		g.finish()
		return err
	}
	r := g.open
	if r == nil {
		r = &round{start: make(chan struct{}), done: make(chan struct{})}
		g.open = r
	}
	i := len(r.files)
	r.files = append(r.files, file)
	g.mu.Unlock()
	if i == 0 {
		<-r.start
		g.flush(r)
		g.finish()
	}
	<-r.done
	return r.errs[i]
}

// flush makes a round's files durable, once for all when it can.
func (g *groupSync) flush(r *round) {
	r.errs = make([]error, len(r.files))
	if len(r.files) == 1 || g.off.Load() || g.flushAll() != nil {
		for i, f := range r.files {
			r.errs[i] = f.Sync()
		}
	}
	close(r.done)
}

// flushAll flushes the file system; one that turns out unable to stops
// the grouping, so commits go back to syncing each its own file at once.
func (g *groupSync) flushAll() error {
	err := g.fs.Flush()
	if errors.Is(err, errors.ErrUnsupported) {
		g.off.Store(true)
	}
	return err
}

// finish ends a sync or flush: the round that gathered meanwhile, if any,
// goes next.
func (g *groupSync) finish() {
	g.mu.Lock()
	next := g.open
	g.open = nil
	g.running = next != nil
	g.mu.Unlock()
	if next != nil {
		close(next.start)
	}
}
