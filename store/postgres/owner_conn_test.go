package postgres

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// A server or role that ends idle sessions (idle_session_timeout, here
// from the URL) must not end the connection that holds an owner's locks:
// a session whose owner waits for its user is idle there, and another
// process would take it over while the owner still runs.
func TestOwnerLockOutlivesIdleSessionTimeout(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t) + "&idle_session_timeout=100"
	a, b := store.New(openBackend(t, url)), store.New(openBackend(t, url))
	defer a.Close()
	defer b.Close()
	if _, err := a.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	// Long enough for the server to end any session idle for 100 ms.
	time.Sleep(time.Second)
	if _, err := b.Lock(ctx, "s"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("lock while the first owner runs, idle: got %v, want ErrLocked", err)
	}
}

// The server probes the owner connection when it is quiet, so the locks
// of an owner whose machine vanished (power, network: no connection is
// closed) free within seconds, not after the system's two hours of TCP
// keepalive.
func TestOwnerConnectionIsProbed(t *testing.T) {
	ctx := t.Context()
	b := openBackend(t, pgtest.SchemaURL(t))
	defer b.Close()
	if _, err := b.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	b.ownerMu.Lock()
	defer b.ownerMu.Unlock()
	total := 0
	for _, name := range []string{"tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count"} {
		var v string
		if err := b.owner.QueryRow(ctx, `SELECT current_setting($1)`, name).Scan(&v); err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("%s = %q: %v", name, v, err)
		}
		total += n
	}
	if total == 0 || total > 60 {
		t.Errorf("the owner connection's keepalive settings add up to %d, want at most a minute", total)
	}
}
