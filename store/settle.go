package store

import (
	"cmp"
	"errors"
	"slices"
)

// A process reads another writer's frame as soon as it is whole in the
// log, before that writer's sync has made it durable; a sync that fails
// has the writer cut the frame off again, and a crash may lose it. A
// commit to another session that relied on the frame (a fork at one of
// its nodes, or a node it makes that the frame holds too, left out as
// stored) would then be durable and acknowledged while naming nodes
// that are gone. So such a commit carries those objects itself.

// unsettled reports whether the object at loc may not be durable yet,
// for a commit to l: it is in the last commit read of another session's
// log (its frames begin at settled), which a writer holding that
// session's lock may be syncing still. Each commit before it was synced
// before the next was written, and l's own frames are no other writer's,
// as the committer holds l's lock. f.mu is held.
func (loc objLoc) unsettled(l *sessionLog) bool {
	return loc.log != l && loc.off >= loc.log.settled.Load()
}

// carry adds to objs, the objects of a commit to l that moves its ref to
// new, the objects of the commit holding new when that is another
// session's unsettled one: with the nodes that precede new in it, so that
// the chain new ends is durable in l's log however that commit fares. An
// object no longer in that log as it was read is ErrNotFound: the commit
// was cut off, and new with it.
func (f *fileBackend) carry(l *sessionLog, new Hash, objs []Object) ([]Object, error) {
	f.mu.Lock()
	loc, ok := f.index[new]
	if !ok || !loc.unsettled(l) {
		f.mu.Unlock()
		return objs, nil
	}
	from := loc.log.settled.Load()
	type placed struct {
		h   Hash
		off int64
	}
	var frame []placed
	for h, o := range f.index {
		if o.log == loc.log && o.off >= from {
			frame = append(frame, placed{h, o.off})
		}
	}
	f.mu.Unlock()
	// In the order the log holds them, so a commit's bytes do not
	// depend on the map's.
	slices.SortFunc(frame, func(a, b placed) int { return cmp.Compare(a.off, b.off) })
	have := make(map[Hash]bool, len(objs))
	for _, o := range objs {
		have[o.Hash] = true
	}
	for _, p := range frame {
		h := p.h
		if have[h] {
			continue
		}
		b, ok, err := f.readIndexed(h)
		switch {
		case errors.Is(err, ErrCorrupt), err == nil && ok && HashOf(b) != h, err == nil && !ok:
			return nil, errorf("object %s: %w: the commit of %q holding it was cut off", h, ErrNotFound, loc.log.id)
		case err != nil:
			return nil, err
		}
		objs = append(objs, Object{Hash: h, Bytes: b})
	}
	return objs, nil
}

// settle reads again the log holding h when h is in its unsettled last
// commit and what was read of it there, b or err, is not h: its writer
// cut that commit off since, and another may have taken its place. The
// frame is forgotten then, and h found where else it is stored (a commit
// that relied on it carried it); settle reports whether it read the log.
// Objects settled, or read whole, cost no more than before.
func (f *fileBackend) settle(h Hash, b []byte, err error) bool {
	f.mu.Lock()
	loc, ok := f.index[h]
	f.mu.Unlock()
	if !ok || loc.off < loc.log.settled.Load() || (err == nil && HashOf(b) == h) {
		return false
	}
	loc.log.mu.Lock()
	defer loc.log.mu.Unlock()
	// A damaged log says so when read as the session's; here only a
	// commit cut off matters.
	_ = f.refresh(loc.log, false)
	return true
}
