package postgres

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// A session's owner is found by the address it advertised while it holds
// the lock, and by no address once the lock is free: released, or freed
// by the server when the owner's connection died.
func TestOwnerAdvertisesWhileItHoldsTheLock(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	ba, bb := openBackend(t, url), openBackend(t, url)
	defer ba.Close()
	defer bb.Close()
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
