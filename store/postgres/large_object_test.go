package postgres

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// One object larger than the bytes a statement is meant to carry (a tool
// result of a large file, say) cannot be split: it goes with the commit's
// own statement, whether it is the only object or the last of several,
// rather than the commit waiting forever to make it smaller.
func TestCommitOfAnObjectOverTheStatementBound(t *testing.T) {
	big := bytes.Repeat([]byte{'x'}, maxStatementObjects+1)
	small := []byte("small")
	for _, c := range []struct {
		name string
		objs []store.Object
	}{
		{"alone", []store.Object{{Hash: store.HashOf(big), Bytes: big}}},
		{"last", []store.Object{{Hash: store.HashOf(small), Bytes: small}, {Hash: store.HashOf(big), Bytes: big}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := openBackend(t, pgtest.SchemaURL(t))
			defer b.Close()
			// A bound on a commit that loops instead of sending the
			// object, not on its speed: under a loaded machine's race
			// detector, a commit of this size and its read take 20 s.
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
			defer cancel()
			head := c.objs[len(c.objs)-1].Hash
			if err := b.Commit(ctx, store.RefHeads, "s", store.Hash{}, head, c.objs); err != nil {
				t.Fatalf("commit of an object of %d bytes: %v", len(big), err)
			}
			if got, err := b.Ref(ctx, store.RefHeads, "s"); err != nil || got != head {
				t.Fatalf("ref = %s, %v; want %s", got, err, head)
			}
			for _, o := range c.objs {
				if got, err := b.Get(ctx, o.Hash); err != nil || !bytes.Equal(got, o.Bytes) {
					t.Fatalf("object %s: %d bytes, %v; want %d", o.Hash, len(got), err, len(o.Bytes))
				}
			}
		})
	}
}

// PostgreSQL takes no value, and no message, of 1 GiB or more, so an
// object that large cannot be stored here: the commit says so, as bad
// input that no retry will mend, rather than as a failure of the
// database, and stores nothing.
func TestObjectOverTheSizeLimitIsRefused(t *testing.T) {
	ctx := t.Context()
	b := openBackend(t, pgtest.SchemaURL(t))
	defer b.Close()
	// Never written, so the pages stay unallocated: only its length is
	// looked at.
	huge := make([]byte, 1<<30)
	small := []byte("small")
	objs := []store.Object{{Hash: store.HashOf(small), Bytes: small}, {Hash: store.HashOf([]byte("huge")), Bytes: huge}}
	err := b.Commit(ctx, store.RefHeads, "s", store.Hash{}, objs[1].Hash, objs)
	if !errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrIO) || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("commit of an object of 1 GiB: got %v, want ErrInvalid naming the size limit", err)
	}
	if _, err := b.Ref(ctx, store.RefHeads, "s"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("ref after the refused commit: got %v, want ErrNotFound", err)
	}
	if _, err := b.Get(ctx, objs[0].Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an object of the refused commit: got %v, want ErrNotFound", err)
	}
}
