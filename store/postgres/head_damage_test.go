package postgres

import (
	"bytes"
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
	"github.com/google/go-cmp/cmp"
)

// A head node whose stored bytes changed after they were written (a
// row edited by hand, a restore gone wrong) must stop the next append
// with ErrCorrupt, whether or not the appender holds the session's lock,
// rather than chain a record onto a node no read will accept: the head
// stays where it was, and once the node is repaired from an export the
// session goes on with nothing lost.
func TestAppendAfterHeadDamageIsCorrupt(t *testing.T) {
	for _, locked := range []bool{true, false} {
		name := "unlocked"
		if locked {
			name = "locked"
		}
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			b := openBackend(t, pgtest.SchemaURL(t))
			st := store.New(b)
			defer st.Close()
			if locked {
				release, err := st.Lock(ctx, "s")
				if err != nil {
					t.Fatal(err)
				}
				defer release()
			}
			recs := storetest.Script("r", 3)
			head, err := st.Append(ctx, "s", recs[:2]...)
			if err != nil {
				t.Fatal(err)
			}
			var export bytes.Buffer
			if err := st.Export(ctx, &export, "s"); err != nil {
				t.Fatal(err)
			}
			if _, err := b.pool.Exec(ctx, `UPDATE baton_objects SET bytes = overlay(bytes placing 'X' from 20 for 1) WHERE hash = $1`, head[:]); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if _, err := st.Append(ctx, "s", recs[2]); !errors.Is(err, store.ErrCorrupt) {
					t.Fatalf("append after the head node was altered: got %v, want ErrCorrupt", err)
				}
			}
			if got, err := b.Ref(ctx, store.RefHeads, "s"); err != nil || got != head {
				t.Fatalf("head after the refused append = %s, %v; want it unmoved at %s", got, err, head)
			}
			if _, err := st.Import(ctx, &export); err != nil {
				t.Fatalf("import to repair the head node: %v", err)
			}
			if _, err := st.Append(ctx, "s", recs[2]); err != nil {
				t.Fatalf("append after the repair: %v", err)
			}
			got, err := st.Records(ctx, "s")
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(recs, got); d != "" {
				t.Fatalf("records mismatch (-want +got):\n%s", d)
			}
		})
	}
}
