package postgres

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
)

// A head ref edited by hand to a hash no object has, while an owner
// holds the session, is damage, not a writer that moved the ref: every
// writer honours the session's lock. The owner's next append must say
// the ref is broken (ErrBrokenRef), as an append without the lock and
// every read say, not ErrConflict, which tells a caller another writer
// is at work; and it must move nothing.
func TestAppendOntoRefToMissingNodeIsCorrupt(t *testing.T) {
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
			if _, err := st.Append(ctx, "s", recs[:2]...); err != nil {
				t.Fatal(err)
			}
			missing := store.HashOf([]byte("never stored"))
			if _, err := b.pool.Exec(ctx, `UPDATE baton_refs SET hash = $1 WHERE kind = 'heads' AND session = 's'`, missing[:]); err != nil {
				t.Fatal(err)
			}
			_, err := st.Append(ctx, "s", recs[2])
			if !errors.Is(err, store.ErrBrokenRef) || errors.Is(err, store.ErrConflict) {
				t.Fatalf("append onto a head ref naming no stored node: got %v, want ErrBrokenRef, not ErrConflict", err)
			}
			if got, err := b.Ref(ctx, store.RefHeads, "s"); err != nil || got != missing {
				t.Fatalf("head after the refused append = %s, %v; want it unmoved at %s", got, err, missing)
			}
		})
	}
}
