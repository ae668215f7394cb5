package contract_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
)

// TestSortedSetBranches extends sets made earlier, not only the newest,
// as a reducer does when one snapshot is stepped twice: sets made from
// one another share their tail, and each must keep exactly what it was
// given however its relatives were extended after it.
func TestSortedSetBranches(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		word := rapid.StringMatching(`[0-9a-f]{1,3}`)
		sets := []contract.SortedSet{{}}
		wants := [][]string{nil}
		for range rapid.IntRange(0, 80).Draw(t, "steps") {
			from := rapid.IntRange(0, len(sets)-1).Draw(t, "from")
			batch := rapid.SliceOfN(word, 0, 6).Draw(t, "batch")
			sets = append(sets, sets[from].With(batch...))
			wants = append(wants, slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(wants[from]), batch...)))))
		}
		for i, s := range sets {
			if diff := cmp.Diff(wants[i], slices.Collect(s.All()), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("set %d holds the wrong entries after its relatives grew (-want +got):\n%s", i, diff)
			}
			if s.Len() != len(wants[i]) {
				t.Fatalf("set %d: Len %d, want %d", i, s.Len(), len(wants[i]))
			}
			for _, x := range wants[i] {
				if !s.Has(x) {
					t.Fatalf("set %d lost %q", i, x)
				}
			}
		}
	})
}

// TestSortedSetSharedAcrossGoroutines extends one set from several
// goroutines at once, as hosts may step copies of one snapshot: each
// chain must hold its own entries and no other's (the race detector
// checks the shared tail's slots).
func TestSortedSetSharedAcrossGoroutines(t *testing.T) {
	base := contract.SortedSetOf("0", "1", "2")
	const chains, adds = 4, 40
	got := make([]contract.SortedSet, chains)
	var wg sync.WaitGroup
	for c := range chains {
		wg.Go(func() {
			s := base
			for i := range adds {
				s = s.With(fmt.Sprintf("c%d-%d", c, i))
				if !s.Has("0") || s.Len() != 3+i+1 {
					t.Errorf("chain %d after %d: Len %d or lost the base", c, i, s.Len())
					return
				}
			}
			got[c] = s
		})
	}
	wg.Wait()
	for c, s := range got {
		want := []string{"0", "1", "2"}
		for i := range adds {
			want = append(want, fmt.Sprintf("c%d-%d", c, i))
		}
		slices.Sort(want)
		if diff := cmp.Diff(want, slices.Collect(s.All())); diff != "" {
			t.Errorf("chain %d (-want +got):\n%s", c, diff)
		}
	}
	if diff := cmp.Diff([]string{"0", "1", "2"}, slices.Collect(base.All())); diff != "" {
		t.Errorf("the shared base changed (-want +got):\n%s", diff)
	}
}
