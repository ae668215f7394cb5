package postgres

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// A commit whose objects add up to more than one message may carry
// (1 GiB), as the first commit of an import of a large export does,
// stores them all and moves the ref. The backend checks no hash, so the
// objects share one buffer under names of their own.
func TestCommitOverAGigabyte(t *testing.T) {
	// Under CI every test runs, -short or not.
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("sends a gigabyte to the server; run without -short")
	}
	ctx := t.Context()
	b := openBackend(t, pgtest.SchemaURL(t))
	defer b.Close()
	body := make([]byte, 16<<20)
	objs := make([]store.Object, 70)
	for i := range objs {
		binary.BigEndian.PutUint64(objs[i].Hash[:], uint64(i+1))
		objs[i].Bytes = body
	}
	head := objs[len(objs)-1].Hash
	if err := b.Commit(ctx, store.RefHeads, "s", store.Hash{}, head, objs); err != nil {
		t.Fatalf("commit of %d MiB: %v", len(objs)*len(body)>>20, err)
	}
	if got, err := b.Ref(ctx, store.RefHeads, "s"); err != nil || got != head {
		t.Fatalf("ref = %s, %v; want %s", got, err, head)
	}
	for _, o := range []store.Object{objs[0], objs[len(objs)-1]} {
		if got, err := b.Get(ctx, o.Hash); err != nil || !bytes.Equal(got, o.Bytes) {
			t.Fatalf("object %s: %d bytes, %v; want %d", o.Hash, len(got), err, len(o.Bytes))
		}
	}
}
