package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
	"github.com/google/go-cmp/cmp"
)

// Another process reads a commit's frame while its writer syncs it, and
// commits to another session what relies on it: a fork at the node the
// frame holds, or the same node appended to a fork of the session made
// before. The writer's sync then fails and it cuts the frame off (a
// crash before the sync would lose it too). What the other process was
// acknowledged must not name a node that is gone: its session reads
// whole, in it and in a store opened afterwards, and Verify passes.
func TestCommitRelyingOnAFrameInFlightKeepsItsNodes(t *testing.T) {
	recs := storetest.Script("r", 2)
	for _, tc := range []struct {
		name   string
		before func(ctx context.Context, reader store.Store, first store.Hash) error
		during func(ctx context.Context, reader store.Store) error
	}{
		{"fork at its node", nil, func(ctx context.Context, reader store.Store) error {
			head, err := reader.Head(ctx, "s")
			if err != nil {
				return err
			}
			return reader.Fork(ctx, "o", head)
		}},
		{"the same node appended", func(ctx context.Context, reader store.Store, first store.Hash) error {
			return reader.Fork(ctx, "o", first)
		}, func(ctx context.Context, reader store.Store) error {
			if _, err := reader.Head(ctx, "s"); err != nil {
				return err
			}
			_, err := reader.Append(ctx, "o", recs[1])
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			mem := vfs.NewMem()
			hooked := &syncHookFS{FS: mem}
			writer, reader := must(store.OpenFS(hooked)), must(store.OpenFS(mem))
			defer writer.Close()
			defer reader.Close()
			release := must(writer.Lock(ctx, "s"))
			defer release()
			first, err := writer.Append(ctx, "s", recs[0])
			if err != nil {
				t.Fatal(err)
			}
			if tc.before != nil {
				if err := tc.before(ctx, reader, first); err != nil {
					t.Fatal(err)
				}
			}
			var duringErr error
			during := func() { duringErr = tc.during(ctx, reader) }
			hooked.hook.Store(&during)
			if _, err := writer.Append(ctx, "s", recs[1]); !errors.Is(err, store.ErrIO) {
				t.Fatalf("append whose sync fails: got %v, want ErrIO", err)
			}
			if duringErr != nil {
				t.Fatalf("commit while the frame was in flight: %v", duringErr)
			}
			for name, st := range map[string]store.Store{"the same store": reader, "a store opened after": must(store.OpenFS(mem))} {
				got, err := st.Records(ctx, "o")
				if err != nil {
					t.Fatalf("%s: records: %v", name, err)
				}
				if d := cmp.Diff(recs, got); d != "" {
					t.Fatalf("%s: records mismatch (-want +got):\n%s", name, d)
				}
				if err := st.Verify(ctx); err != nil {
					t.Fatalf("%s: verify: %v", name, err)
				}
			}
		})
	}
}
