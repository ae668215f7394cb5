package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/batonrt/baton/store"
)

// RunBackend checks a store.Backend: first the rules of its own seam
// (objects by hash, refs moved only by compare-and-set, exclusive locks),
// then every rule of Run on store.New over a fresh backend.
func RunBackend(t *testing.T, newBackend func(t *testing.T) store.Backend) {
	t.Helper()
	for _, r := range backendRules {
		t.Run("Backend"+r.name, func(t *testing.T) {
			b := newBackend(t)
			if err := r.check(t.Context(), b); err != nil {
				t.Errorf("%v\nrule: %s", err, r.why)
			}
			if err := b.Close(); err != nil {
				t.Errorf("b.Close: %v", err)
			}
		})
	}
	Run(t, func(t *testing.T) store.Store { return store.New(newBackend(t)) })
}

type backendRule struct {
	name, why string
	check     func(ctx context.Context, b store.Backend) error
}

var backendRules = []backendRule{
	{"Objects", "Get returns exactly the bytes a Commit stored under a hash, and ErrNotFound for any other hash", backendObjects},
	{"CompareAndSet", "Commit moves a ref only from the value it expects (zero: absent); otherwise ErrConflict, and the ref stays", backendCAS},
	{"Refs", "Refs lists the sessions holding a ref of the kind, sorted, and Ref of any other is ErrNotFound", backendRefs},
	{"Lock", "a session's lock has one holder at a time; ErrLocked for another until released, and a released lock's Close, called again, frees no later holder's", backendLock},
	{"RacingOwners", "stores over one backend racing for a session's lock have one holder at a time, and what each holder appends lands once, after the last", racingOwners},
	{"RacingWriters", "stores over one backend appending to one session without its lock each land or lose the race (ErrConflict, ErrLocked, or ErrInvalid for a passed step), and nothing lands twice or is lost", racingWriters},
}

func objectOf(s string) store.Object {
	return store.Object{Hash: store.HashOf([]byte(s)), Bytes: []byte(s)}
}

func backendObjects(ctx context.Context, b store.Backend) error {
	a, c := objectOf("a"), objectOf("c")
	if err := b.Commit(ctx, store.RefHeads, "s", store.Hash{}, a.Hash, []store.Object{a, c, a}); err != nil {
		return fmt.Errorf("b.Commit: %w", err)
	}
	for _, o := range []store.Object{a, c} {
		got, err := b.Get(ctx, o.Hash)
		if err != nil || !bytes.Equal(got, o.Bytes) {
			return fmt.Errorf("b.Get(%s) = %q, %v; want %q", o.Hash, got, err, o.Bytes)
		}
	}
	_, err := b.Get(ctx, store.HashOf([]byte("b")))
	return expect("Get of an object never stored", err, store.ErrNotFound)
}

func backendCAS(ctx context.Context, b store.Backend) error {
	h1, h2, h3 := objectOf("1"), objectOf("2"), objectOf("3")
	if err := b.Commit(ctx, store.RefHeads, "s", store.Hash{}, h1.Hash, []store.Object{h1}); err != nil {
		return fmt.Errorf("b.Commit of a new ref: %w", err)
	}
	err := b.Commit(ctx, store.RefHeads, "s", store.Hash{}, h2.Hash, []store.Object{h2})
	if e := expect("Commit expecting no ref where one is", err, store.ErrConflict); e != nil {
		return e
	}
	err = b.Commit(ctx, store.RefHeads, "s", h3.Hash, h2.Hash, nil)
	if e := expect("Commit expecting a value the ref never held", err, store.ErrConflict); e != nil {
		return e
	}
	if got, err := b.Ref(ctx, store.RefHeads, "s"); err != nil || got != h1.Hash {
		return fmt.Errorf("ref after refused commits = %s, %v; want %s", got, err, h1.Hash)
	}
	if err := b.Commit(ctx, store.RefHeads, "s", h1.Hash, h2.Hash, []store.Object{h2}); err != nil {
		return fmt.Errorf("b.Commit from the current value: %w", err)
	}
	if got, err := b.Ref(ctx, store.RefHeads, "s"); err != nil || got != h2.Hash {
		return fmt.Errorf("ref = %s, %v; want %s", got, err, h2.Hash)
	}
	_, err = b.Ref(ctx, store.RefCheckpoints, "s")
	return expect("Ref of another kind", err, store.ErrNotFound)
}

func backendRefs(ctx context.Context, b store.Backend) error {
	o := objectOf("x")
	for _, id := range []string{"b", "a/1", "c"} {
		if err := b.Commit(ctx, store.RefHeads, id, store.Hash{}, o.Hash, []store.Object{o}); err != nil {
			return err
		}
	}
	if err := b.Commit(ctx, store.RefCheckpoints, "c", store.Hash{}, o.Hash, nil); err != nil {
		return err
	}
	heads, err := b.Refs(ctx, store.RefHeads)
	if err != nil {
		return err
	}
	if err := diff("heads", []string{"a/1", "b", "c"}, heads); err != nil {
		return err
	}
	cps, err := b.Refs(ctx, store.RefCheckpoints)
	if err != nil {
		return err
	}
	if err := diff("checkpoints", []string{"c"}, cps); err != nil {
		return err
	}
	_, err = b.Ref(ctx, store.RefHeads, "d")
	return expect("Ref of an unknown session", err, store.ErrNotFound)
}

func backendLock(ctx context.Context, b store.Backend) error {
	l, err := b.Lock(ctx, "s")
	if err != nil {
		return fmt.Errorf("b.Lock: %w", err)
	}
	if _, err := b.Lock(ctx, "s"); !errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("second Lock: got %v, want ErrLocked", err)
	}
	if err := l.Close(); err != nil {
		return err
	}
	again, err := b.Lock(ctx, "s")
	if err != nil {
		return fmt.Errorf("b.Lock after release: %w", err)
	}
	// A holder that closes its lock twice (a deferred Close after an
	// explicit one) must not free the lock another holder took since.
	_ = l.Close()
	if third, err := b.Lock(ctx, "s"); !errors.Is(err, store.ErrLocked) {
		if err == nil {
			_ = third.Close()
		}
		return fmt.Errorf("b.Lock after the first holder closed its lock again while a second holds it: got %v, want ErrLocked", err)
	}
	return again.Close()
}
