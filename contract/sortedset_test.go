package contract_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
)

// TestSortedSetProperty holds a SortedSet, grown by random batches, to a
// sorted slice of distinct strings: the same entries, the same answers
// to Has, the same JSON as encoding/json gives the slice, and every set
// made on the way left as it was.
func TestSortedSetProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Few distinct values make repeats likely; many make runs split.
		// Now and then an entry too long for a key, or holding a zero
		// byte, which the set keeps apart.
		word := rapid.OneOf(
			rapid.StringMatching(`[0-9a-f]{1,3}`), rapid.StringMatching(`[0-9a-f]{1,3}`), rapid.StringMatching(`[0-9a-f]{1,3}`),
			rapid.StringMatching(`[0-9a-f]{15,18}`),
			rapid.StringMatching("[a\x00]{0,3}"),
		)
		var sets []contract.SortedSet
		var wants [][]string
		set := contract.SortedSet{}
		var want []string
		for range rapid.IntRange(0, 60).Draw(t, "batches") {
			batch := rapid.SliceOfN(word, 0, 40).Draw(t, "batch")
			set = set.With(slices.Clone(batch)...)
			want = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(want), batch...))))
			sets = append(sets, set)
			wants = append(wants, want)
		}
		for i, s := range sets {
			if diff := cmp.Diff(wants[i], slices.Collect(s.All()), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("set %d was changed by a later With, or holds the wrong entries (-want +got):\n%s", i, diff)
			}
			if s.Len() != len(wants[i]) {
				t.Fatalf("set %d: Len %d, want %d", i, s.Len(), len(wants[i]))
			}
		}
		probe := rapid.SliceOfN(word, 1, 20).Draw(t, "probe")
		for _, x := range probe {
			_, want := slices.BinarySearch(want, x)
			if got := set.Has(x); got != want {
				t.Fatalf("Has(%q) = %v, want %v", x, got, want)
			}
		}
		got, err := json.Marshal(set)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		if set.Len() > 0 && string(got) != string(wantJSON) {
			t.Fatalf("JSON %s, want the slice's %s", got, wantJSON)
		}
		var back contract.SortedSet
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		if !back.Equal(set) || !set.Equal(back) {
			t.Fatalf("JSON round trip changed the set: %v, want %v", slices.Collect(back.All()), want)
		}
	})
}

// TestProgressJSONUnchanged: a snapshot's progress encodes as it did when
// Seen was a sorted slice, so stored checkpoints read and write the same
// bytes.
func TestProgressJSONUnchanged(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    contract.Progress
		want string
	}{
		{"empty", contract.Progress{}, `{}`},
		{"seen", contract.Progress{Seen: contract.SortedSetOf("b", "a"), Repeats: 1}, `{"seen":["a","b"],"repeats":1}`},
		{"no seen", contract.Progress{StaleRounds: 2}, `{"stale_rounds":2}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
			var back contract.Progress
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.p, back); diff != "" {
				t.Fatalf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// BenchmarkSortedSetHasHex asks a set of 200 result hashes, the guard's
// set late in a long run, about one more.
func BenchmarkSortedSetHasHex(b *testing.B) {
	var set contract.SortedSet
	for i := range uint64(50) {
		set = set.WithHex(i*0x9e3779b97f4a7c15, i*0xbf58476d1ce4e5b9, i*0x94d049bb133111eb, i*0x2545f4914f6cdd1d)
	}
	for i := uint64(0); b.Loop(); i++ {
		set.HasHex(i * 0x9e3779b97f4a7c15)
	}
}
