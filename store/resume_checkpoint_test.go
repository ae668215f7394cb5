package store_test

import (
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// rawCheckpoint is a checkpoint object as a backend stores it, whatever
// its snapshot says: the bytes a store of another release, a hand edit
// or a bug could have left under the checkpoint ref.
func rawCheckpoint(t *testing.T, at store.Hash, snap contract.RunSnapshot) store.Object {
	t.Helper()
	b := []byte(`{"v":1,"kind":"checkpoint","node":"` + at.String() + `","snapshot":` + encodeSnap(t, snap) + `}`)
	return store.Object{Hash: store.HashOf(b), Bytes: b}
}

// TestResumeIgnoresACheckpointThatDisagreesWithItsNode: a checkpoint is
// a shortcut, never the truth. One whose snapshot does not match the node
// it names (another step count, another session's snapshot), one that
// does not decode, or one whose object is missing is ignored, and Resume
// folds the records, as Verify calls such a checkpoint damage.
func TestResumeIgnoresACheckpointThatDisagreesWithItsNode(t *testing.T) {
	ctx := t.Context()
	rules := testRules()
	const n = 10
	recs, snaps := cadenceSession(t, rules, "s", n)
	_, others := cadenceSession(t, rules, "other", n)
	junk := []byte(`{"v":1,"kind":"checkpoint","node":"00","snapshot":{}}`)
	for _, c := range []struct {
		name string
		cp   func(head store.Hash) store.Object
	}{
		{"earlier snapshot at the head", func(head store.Hash) store.Object { return rawCheckpoint(t, head, snaps[2]) }},
		{"later snapshot at the head", func(head store.Hash) store.Object {
			later := snaps[n-1]
			later.Steps += 5
			return rawCheckpoint(t, head, later)
		}},
		{"another session's snapshot", func(head store.Hash) store.Object { return rawCheckpoint(t, head, others[n-1]) }},
		{"undecodable", func(store.Hash) store.Object { return store.Object{Hash: store.HashOf(junk), Bytes: junk} }},
		{"missing object", func(head store.Hash) store.Object { return store.Object{Hash: store.HashOf([]byte("gone"))} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := store.NewMemoryBackend()
			st := store.New(b)
			defer st.Close()
			head, err := st.Append(ctx, "s", recs...)
			if err != nil {
				t.Fatal(err)
			}
			cp := c.cp(head)
			var objs []store.Object
			if cp.Bytes != nil {
				objs = []store.Object{cp}
			}
			if err := b.Commit(ctx, store.RefCheckpoints, "s", store.Hash{}, cp.Hash, objs); err != nil {
				t.Fatal(err)
			}
			got, err := store.Resume(ctx, st, rules, "s")
			if err != nil {
				t.Fatalf("Resume: %v", err)
			}
			if d := cmp.Diff(encodeSnap(t, snaps[n-1]), encodeSnap(t, got)); d != "" {
				t.Fatalf("resume mismatch (-want +got):\n%s", d)
			}
		})
	}
}
