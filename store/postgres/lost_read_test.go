package postgres

import (
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
	"github.com/google/go-cmp/cmp"
)

// An owner reads the refs of the sessions it holds from what it last
// read or moved, as no one else moves them. Once it is told its lock is
// lost, another process may have taken the session over and moved them:
// its reads, by the holder or by anyone else in its process until the
// lease is let go, ask the server again rather than answer with the head
// it last saw.
func TestOwnerThatLostItsLockReadsTheNewHead(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	ba := openBackend(t, url)
	a, b := store.New(ba), store.New(openBackend(t, url))
	defer a.Close()
	defer b.Close()
	recs := storetest.Script("r", 3)
	l, err := a.Lease(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if _, err := a.Append(ctx, "s", recs[0]); err != nil {
		t.Fatal(err)
	}
	terminateOwner(t, ba)
	select {
	case <-l.Lost():
	case <-time.After(10 * time.Second):
		t.Fatal("lease not told of its lost lock 10 s after its connection ended")
	}
	taken, err := b.Lease(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Release()
	head, err := b.Append(ctx, "s", recs[1])
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.Head(ctx, "s"); err != nil || got != head {
		t.Errorf("head read by the owner that lost the lock = %s, %v; want the new owner's %s", got, err, head)
	}
	// Read once, the head is not taken as the owner's own again.
	if head, err = b.Append(ctx, "s", recs[2]); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Head(ctx, "s"); err != nil || got != head {
		t.Errorf("head read again by the owner that lost the lock = %s, %v; want the new owner's %s", got, err, head)
	}
	got, err := a.Records(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Errorf("records read by the owner that lost the lock (-want +got):\n%s", d)
	}
}
