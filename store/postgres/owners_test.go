package postgres

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// twoBackends opens two backends on one fresh schema, as two machines
// sharing a database, closed when the test ends.
func twoBackends(t *testing.T) (*Backend, *Backend) {
	url := pgtest.SchemaURL(t)
	ba, bb := openBackend(t, url), openBackend(t, url)
	t.Cleanup(func() {
		ba.Close()
		bb.Close()
	})
	return ba, bb
}

// A session's owner is found by the address it advertised while it holds
// the lock, and by no address once the lock is free: released, or freed
// by the server when the owner's connection died.
func TestOwnerAdvertisesWhileItHoldsTheLock(t *testing.T) {
	ctx := t.Context()
	ba, bb := twoBackends(t)
	noOwner := func(session string) {
		t.Helper()
		if addr, err := bb.Owner(ctx, session); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("owner of %q: %q, %v; want ErrNotFound", session, addr, err)
		}
	}
	noOwner("s")

	ba.Advertise("http://10.0.0.1:8080")
	l, err := ba.Lock(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if addr, err := bb.Owner(ctx, "s"); err != nil || addr != "http://10.0.0.1:8080" {
		t.Fatalf("owner while locked: %q, %v", addr, err)
	}
	noOwner("other")
	l.Close()
	noOwner("s")

	// A backend that advertises nothing is an owner no one can reach.
	lb, err := bb.Lock(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	noOwner("s")
	lb.Close()

	if _, err := ba.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	terminateOwner(t, ba)
	noOwner("s")
}

// Orphans are the sessions whose owner died holding them: not those
// released on purpose, not those held, and no longer one another process
// has taken.
func TestOrphansAreSessionsWhoseOwnerDied(t *testing.T) {
	ctx := t.Context()
	ba, bb := twoBackends(t)
	orphans := func(want ...string) {
		t.Helper()
		got, err := bb.Orphans(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("orphans mismatch (-want +got):\n%s", diff)
		}
	}
	ba.Advertise("http://a")
	bb.Advertise("http://b")
	for _, s := range []string{"released", "held", "died", "died too"} {
		l, err := ba.Lock(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if s == "released" {
			l.Close()
		}
	}
	orphans()
	terminateOwner(t, ba)
	// The owner's connection died with every lock it held; "held" is no
	// different from the others now.
	orphans("died", "died too", "held")
	l, err := bb.Lock(ctx, "died")
	if err != nil {
		t.Fatal(err)
	}
	orphans("died too", "held")
	l.Close()
	orphans("died too", "held")
}

// Locked tells a session held by any backend, advertised or not, from a
// free one, and leaves no trace of a session nobody stored.
func TestLockedSaysWhetherAnyoneHoldsTheSession(t *testing.T) {
	ctx := t.Context()
	ba, bb := twoBackends(t)
	locked := func(b *Backend, session string, want bool) {
		t.Helper()
		if got, err := b.Locked(ctx, session); err != nil || got != want {
			t.Fatalf("locked %q: %v, %v; want %v", session, got, err, want)
		}
	}
	locked(bb, "s", false)
	l, err := ba.Lock(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	locked(bb, "s", true)
	locked(ba, "s", true)
	locked(bb, "other", false)
	l.Close()
	locked(bb, "s", false)
	var rows int
	if err := bb.pool.QueryRow(ctx, `SELECT count(*) FROM baton_owners WHERE session = 'other'`).Scan(&rows); err != nil || rows != 0 {
		t.Errorf("asking about a session nobody stored left %d rows (%v)", rows, err)
	}
}
