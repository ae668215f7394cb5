package store

import (
	"context"
	"io"
	"maps"
	"slices"
	"sync"
)

// NewMemory returns a Store that keeps everything in memory. It verifies
// reads exactly as the file backend does. Its backend is its own, so it
// is a Recorder: records it takes through Record are hashed, and most
// encoded, only when the store is next read.
func NewMemory(opts ...Option) Store {
	d := newDB(NewMemoryBackend(), opts)
	d.late = true
	return d
}

// NewMemoryBackend returns a Backend that keeps everything in memory,
// for tests and for wrapping.
func NewMemoryBackend() Backend { return &memBackend{} }

// memBackend makes each map at its first entry: a memory store is made
// with every agent that is given none, and a run that is never read
// commits nothing to it.
type memBackend struct {
	mu                 sync.Mutex
	objects            map[Hash][]byte
	heads, checkpoints map[string]Hash
	locks              map[string]bool
}

// refs returns the map of kind's refs, made if create is set; ok is false
// for a kind that is neither.
func (m *memBackend) refs(kind RefKind, create bool) (refs map[string]Hash, ok bool) {
	var p *map[string]Hash
	switch kind {
	case RefHeads:
		p = &m.heads
	case RefCheckpoints:
		p = &m.checkpoints
	default:
		return nil, false
	}
	if *p == nil && create {
		*p = map[string]Hash{}
	}
	return *p, true
}

func (m *memBackend) Get(ctx context.Context, h Hash) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.objects[h]
	if !ok {
		return nil, errorf("store: object %s: %w", h, ErrNotFound)
	}
	return slices.Clone(b), nil
}

func (m *memBackend) Ref(ctx context.Context, kind RefKind, session string) (Hash, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	refs, _ := m.refs(kind, false)
	h, ok := refs[session]
	if !ok {
		return Hash{}, RefNotFound(kind, session)
	}
	return h, nil
}

func (m *memBackend) Refs(ctx context.Context, kind RefKind) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	refs, _ := m.refs(kind, false)
	return slices.Sorted(maps.Keys(refs)), nil
}

func (m *memBackend) Commit(ctx context.Context, kind RefKind, session string, old, new Hash, objs []Object) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	refs, ok := m.refs(kind, true)
	if !ok {
		return errorf("store: commit: %w: ref kind %q", ErrInvalid, kind)
	}
	if cur := refs[session]; cur != old {
		return errorf("store: %s ref of %q: %w: holds %s, expected %s", kind, session, ErrConflict, cur, old)
	}
	m.put(objs, false)
	refs[session] = new
	return nil
}

func (m *memBackend) Repair(ctx context.Context, objs []Object) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.put(objs, true)
	return nil
}

// put stores objs, over the objects of the same hash when replace is
// set, else only those not stored yet. Called with m.mu held.
func (m *memBackend) put(objs []Object, replace bool) {
	if len(objs) > 0 && m.objects == nil {
		m.objects = make(map[Hash][]byte, len(objs))
	}
	for _, o := range objs {
		if _, ok := m.objects[o.Hash]; ok && !replace {
			continue
		}
		m.objects[o.Hash] = slices.Clone(o.Bytes)
	}
}

func (m *memBackend) Lock(ctx context.Context, session string) (io.Closer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.locks[session] {
		return nil, errorf("store: lock %q: %w", session, ErrLocked)
	}
	if m.locks == nil {
		m.locks = map[string]bool{}
	}
	m.locks[session] = true
	// Once: a holder closing its lock again must not free the lock
	// another holder took since.
	var once sync.Once
	return closerFunc(func() error {
		once.Do(func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			delete(m.locks, session)
		})
		return nil
	}), nil
}

func (m *memBackend) Close() error { return nil }

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
