package store

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
)

// NewMemory returns a Store that keeps everything in memory. It verifies
// reads exactly as the file backend does.
func NewMemory(opts ...Option) Store {
	return newDB(&memBackend{
		objects: map[Hash][]byte{},
		refs:    map[refKind]map[string]Hash{refHeads: {}, refCheckpoints: {}},
		locks:   map[string]bool{},
	}, opts)
}

type memBackend struct {
	mu      sync.Mutex
	objects map[Hash][]byte
	refs    map[refKind]map[string]Hash
	locks   map[string]bool
}

func (m *memBackend) putObjects(ctx context.Context, objs []object) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, o := range objs {
		if _, ok := m.objects[o.hash]; !ok {
			m.objects[o.hash] = slices.Clone(o.bytes)
		}
	}
	return nil
}

func (m *memBackend) getObject(ctx context.Context, h Hash) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.objects[h]
	if !ok {
		return nil, fmt.Errorf("store: object %s: %w", h, ErrNotFound)
	}
	return slices.Clone(b), nil
}

func (m *memBackend) readRef(ctx context.Context, kind refKind, session string) (Hash, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.refs[kind][session]
	if !ok {
		return Hash{}, fmt.Errorf("store: %s ref of %q: %w", kind, session, ErrNotFound)
	}
	return h, nil
}

func (m *memBackend) writeRef(ctx context.Context, kind refKind, session string, h Hash) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.refs[kind][session] = h
	return nil
}

func (m *memBackend) listRefs(ctx context.Context, kind refKind) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.refs[kind])), nil
}

func (m *memBackend) lock(ctx context.Context, session string) (io.Closer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.locks[session] {
		return nil, fmt.Errorf("store: lock %q: %w", session, ErrLocked)
	}
	m.locks[session] = true
	return closerFunc(func() error {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.locks, session)
		return nil
	}), nil
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
