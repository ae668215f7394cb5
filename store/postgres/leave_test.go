package postgres

import (
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// A session its owner leaves (store.Lease.Leave: a server going down for
// a restart with a run in flight) is free and left to the other
// processes as a session whose owner died is: listed among the orphans,
// so that one of them takes it and resumes the run. One released is not.
func TestLeftSessionIsAnOrphan(t *testing.T) {
	ctx := t.Context()
	ba, bb := twoBackends(t)
	ba.Advertise("http://a")
	sa := store.New(ba)
	for _, s := range []string{"left", "released"} {
		l, err := sa.Lease(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if s == "left" {
			err = l.Leave()
		} else {
			err = l.Release()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := bb.Orphans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"left"}, got); diff != "" {
		t.Fatalf("orphans mismatch (-want +got):\n%s", diff)
	}
	if _, err := bb.Lock(ctx, "left"); err != nil {
		t.Fatalf("the left session is not free: %v", err)
	}
}
