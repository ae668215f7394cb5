package store_test

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

// A checkpoint Resume would ignore, as not of its session, is damage
// Verify reports: a snapshot of another session, or one at a node of
// another session's chain, under the session's checkpoint ref (left by
// a hand edit, a bad restore or a store of another release).
func TestVerifyReportsACheckpointOfAnotherSession(t *testing.T) {
	ctx := t.Context()
	rules := testRules()
	const n = 6
	recs, snaps := cadenceSession(t, rules, "s", n)
	_, others := cadenceSession(t, rules, "other", n)
	// Records of their own: cadenceSession's are the same for any id.
	otherRecs := storetest.Script("other", n)
	for _, c := range []struct {
		name string
		cp   func(head, otherHead store.Hash) store.Object
	}{
		{"another session's snapshot", func(head, _ store.Hash) store.Object { return rawCheckpoint(t, head, others[n-1]) }},
		{"a node of another session", func(_, otherHead store.Hash) store.Object {
			return rawCheckpoint(t, otherHead, snaps[n-1])
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := store.NewMemoryBackend()
			st := store.New(b)
			defer st.Close()
			head, err := st.Append(ctx, "s", recs...)
			if err != nil {
				t.Fatal(err)
			}
			otherHead, err := st.Append(ctx, "other", otherRecs...)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Verify(ctx); err != nil {
				t.Fatalf("Verify before the checkpoint: %v", err)
			}
			cp := c.cp(head, otherHead)
			if err := b.Commit(ctx, store.RefCheckpoints, "s", store.Hash{}, cp.Hash, []store.Object{cp}); err != nil {
				t.Fatal(err)
			}
			if err := st.Verify(ctx); !errors.Is(err, store.ErrCorrupt) {
				t.Fatalf("Verify with a checkpoint of %s: got %v, want ErrCorrupt", c.name, err)
			}
		})
	}
}
