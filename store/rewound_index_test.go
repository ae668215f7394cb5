package store_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/vfs"
)

// TestRewoundLogKeepsObjectsOtherLogsHold: a reader that finds a log
// rewound (its last frame was a commit whose sync failed) drops that
// log's objects from its index, to read the log again. An object the
// reader first saw in the failed frame, and since read in another
// session's log, where it is committed for good, must stay readable: the
// index kept only its first place, which is gone, and the other log is
// not read again, so the reader answered ErrNotFound for it.
func TestRewoundLogKeepsObjectsOtherLogsHold(t *testing.T) {
	reader, shared := rewoundWithSharedObject(t, vfs.NewMem(), nil)
	got, err := reader.Get(context.Background(), shared.Hash)
	if err != nil || !bytes.Equal(got, shared.Bytes) {
		t.Fatalf("reader's Get of an object session m holds: %q, %v", got, err)
	}
}

// rewoundWithSharedObject leaves a reader of mem (through readerFS when
// not nil) that found session s's log rewound under it: its last frame
// read was a commit of shared whose sync failed, and another process has
// since committed shared to session m, which the reader read too. It
// returns the reader and shared; the backends close when t ends.
func rewoundWithSharedObject(t *testing.T, mem vfs.FS, readerFS vfs.FS) (store.Backend, store.Object) {
	t.Helper()
	ctx := context.Background()
	if readerFS == nil {
		readerFS = mem
	}
	hooked := &syncHookFS{FS: mem}
	writer := must(store.OpenFSBackend(hooked))
	reader := must(store.OpenFSBackend(readerFS))
	other := must(store.OpenFSBackend(mem))
	t.Cleanup(func() { writer.Close(); reader.Close(); other.Close() })
	obj := func(b string) store.Object {
		return store.Object{Hash: store.Hash{b[0], b[len(b)-1]}, Bytes: []byte(b)}
	}
	a, shared, b, m := obj("a1"), obj("shared"), obj("b2"), obj("m1")

	lock := must(writer.Lock(ctx, "s"))
	t.Cleanup(func() { lock.Close() })
	if err := writer.Commit(ctx, store.RefHeads, "s", store.Hash{}, a.Hash, []store.Object{a}); err != nil {
		t.Fatal(err)
	}
	if _, err := reader.Ref(ctx, store.RefHeads, "s"); err != nil {
		t.Fatal(err)
	}
	// While the writer's commit of shared to s syncs (and fails), the
	// reader reads it, and another process commits shared to session m,
	// which the reader reads next.
	during := func() {
		if _, err := reader.Ref(ctx, store.RefHeads, "s"); err != nil {
			t.Error(err)
		}
		if err := other.Commit(ctx, store.RefHeads, "m", store.Hash{}, m.Hash, []store.Object{m, shared}); err != nil {
			t.Error(err)
		}
		if _, err := reader.Ref(ctx, store.RefHeads, "m"); err != nil {
			t.Error(err)
		}
	}
	hooked.hook.Store(&during)
	if err := writer.Commit(ctx, store.RefHeads, "s", a.Hash, shared.Hash, []store.Object{shared}); err == nil {
		t.Fatal("the commit whose sync fails went through")
	}
	if err := writer.Commit(ctx, store.RefHeads, "s", a.Hash, b.Hash, []store.Object{b}); err != nil {
		t.Fatal(err)
	}
	if h := must(reader.Ref(ctx, store.RefHeads, "s")); h != b.Hash {
		t.Fatalf("reader's head of s is %v, want the commit after the failed one", h)
	}
	return reader, shared
}
