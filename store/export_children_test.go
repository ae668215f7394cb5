package store_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/google/go-cmp/cmp"
)

// TestExportNamedTakesDelegateChildren: exporting a session by name takes
// along the sessions of its delegate calls at every depth, named as the
// runtime names them (the parent's id and "/STEP.INDEX", cut from the
// front when too long, after a digest of the whole parent id from rules
// revision 8 on), whether or not the parent links them yet; other
// sessions that merely share a prefix stay behind.
func TestExportNamedTakesDelegateChildren(t *testing.T) {
	long := strings.Repeat("p", store.MaxSessionID-2)
	longChild := long[2:] + "/2.0" // as runs before revision 8 name them
	longGrandchild := longChild[4:] + "/3.1"
	// From revision 8 a cut name begins with a digest of the whole parent
	// id, so a parent ending as long does keeps its children apart.
	other := "q" + long[1:]
	digestChild := contract.ChildSession(long, 2, 0)
	digestGrandchild := contract.ChildSession(digestChild, 3, 1)
	otherChild := contract.ChildSession(other, 2, 0)
	cases := []struct {
		name     string
		sessions []string
		export   string
		want     []string
	}{
		{
			name:     "short ids",
			sessions: []string{"a", "a/2.0", "a/2.0/5.1", "a/7.3", "a/x", "a/2", "a/2.0x", "ab/2.0", "b/2.0", "a/2.0/x"},
			export:   "a",
			want:     []string{"a", "a/2.0", "a/2.0/5.1", "a/7.3"},
		},
		{
			name:     "a child's own",
			sessions: []string{"a", "a/2.0", "a/2.0/5.1"},
			export:   "a/2.0",
			want:     []string{"a/2.0", "a/2.0/5.1"},
		},
		{
			name:     "ids cut to fit",
			sessions: []string{long, longChild, longGrandchild, long + "/2"},
			export:   long,
			want:     []string{long, longChild, longGrandchild},
		},
		{
			name:     "ids cut to fit after a digest",
			sessions: []string{long, digestChild, digestGrandchild, other, otherChild, contract.ChildSession(otherChild, 3, 1)},
			export:   long,
			want:     []string{long, digestChild, digestGrandchild},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			src := store.NewMemory()
			for _, id := range c.sessions {
				if _, err := src.Append(ctx, id, storetest.Script("r1", 2)...); err != nil {
					t.Fatal(err)
				}
			}
			var buf bytes.Buffer
			if err := src.Export(ctx, &buf, c.export); err != nil {
				t.Fatal(err)
			}
			ids, err := store.NewMemory().Import(ctx, &buf)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(c.want) // Import lists what it imported in order
			if diff := cmp.Diff(c.want, ids); diff != "" {
				t.Errorf("imported sessions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
