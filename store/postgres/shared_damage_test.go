package postgres

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
)

// Sessions that share a prefix (a fork) can append the same record and
// so make the same node, stored once. When the other session's copy has
// been damaged, an append that makes that node must not report success
// with a head no read accepts: it is refused with ErrCorrupt, and the
// head stays where it was.
func TestAppendOfANodeStoredDamagedIsCorrupt(t *testing.T) {
	for _, locked := range []bool{true, false} {
		name := "unlocked"
		if locked {
			name = "locked"
		}
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			url := pgtest.SchemaURL(t)
			b := openBackend(t, url)
			st := store.New(b)
			defer st.Close()
			if locked {
				release, err := st.Lock(ctx, "a")
				if err != nil {
					t.Fatal(err)
				}
				defer release()
			}
			recs := storetest.Script("r", 3)
			at, err := st.Append(ctx, "a", recs[:2]...)
			if err != nil {
				t.Fatal(err)
			}
			other := store.New(openBackend(t, url))
			defer other.Close()
			if err := other.Fork(ctx, "b", at); err != nil {
				t.Fatal(err)
			}
			shared, err := other.Append(ctx, "b", recs[2])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.pool.Exec(ctx, `UPDATE baton_objects SET bytes = overlay(bytes placing 'X' from 20 for 1) WHERE hash = $1`, shared[:]); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Append(ctx, "a", recs[2]); !errors.Is(err, store.ErrCorrupt) {
				t.Fatalf("append making a node stored damaged: got %v, want ErrCorrupt", err)
			}
			if got, err := b.Ref(ctx, store.RefHeads, "a"); err != nil || got != at {
				t.Fatalf("head after the refused append = %s, %v; want it unmoved at %s", got, err, at)
			}
		})
	}
}
