package contract_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

func TestChildSession(t *testing.T) {
	long := strings.Repeat("é", contract.MaxSessionID/2) // two bytes a rune
	before := contract.RevisionChildDigest - 1
	cases := []struct {
		revision int
		parent   string
		step     uint64
		index    int
		want     string
	}{
		{before, "s", 2, 0, "s/2.0"},
		{before, "s/2.0", 5, 1, "s/2.0/5.1"},
		{contract.CurrentRevision, "s", 2, 0, "s/2.0"},
		{contract.CurrentRevision, "s/2.0", 5, 1, "s/2.0/5.1"},
		// Cut from the front to fit, never inside a rune: before
		// revision 8 parents that end alike name their children alike.
		{before, long, 12, 3, strings.Repeat("é", (contract.MaxSessionID-6)/2) + "/12.3"},
		{before, "x" + long, 12, 3, strings.Repeat("é", (contract.MaxSessionID-6)/2) + "/12.3"},
		// From revision 8 a digest of the whole parent id comes first.
		{contract.RevisionChildDigest, long, 12, 3, "~84fe2e03d50dd3a1:" + strings.Repeat("é", 28) + "/12.3"},
		{contract.RevisionChildDigest, "x" + long, 12, 3, "~85c6ce9faaa994a7:" + strings.Repeat("é", 28) + "/12.3"},
		{contract.RevisionChildDigest, strings.Repeat("s", contract.MaxSessionID-4), 2, 0, strings.Repeat("s", contract.MaxSessionID-4) + "/2.0"},
	}
	for _, c := range cases {
		got := contract.ChildSessionAt(c.revision, c.parent, c.step, c.index)
		if got != c.want {
			t.Errorf("ChildSessionAt(%d, %q, %d, %d) = %q, want %q", c.revision, c.parent, c.step, c.index, got, c.want)
		}
		if !contract.IsChildSession(c.parent, got) {
			t.Errorf("IsChildSession(%q, %q) = false for the name ChildSessionAt made", c.parent, got)
		}
	}
}

func TestIsChildSessionRefusesOtherNames(t *testing.T) {
	for _, id := range []string{"s", "s/2", "s/2.", "s/.0", "s/02.0", "s/2.0x", "s/-1.0", "s/2.-1", "t/2.0", "ss/2.0", "s/2.0/x"} {
		if contract.IsChildSession("s", id) {
			t.Errorf("IsChildSession(%q, %q) = true: no delegate call of s has that session", "s", id)
		}
	}
}

// Every name ChildSessionAt makes, under any revision, is valid UTF-8
// within MaxSessionID and is recognised as the parent's child.
func TestChildSessionProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parent := rapid.StringOfN(rapid.Rune(), 1, contract.MaxSessionID, contract.MaxSessionID).Draw(t, "parent")
		step := rapid.Uint64().Draw(t, "step")
		index := rapid.IntRange(0, 1<<20).Draw(t, "index")
		id := contract.ChildSessionAt(rapid.IntRange(0, contract.CurrentRevision).Draw(t, "revision"), parent, step, index)
		if len(id) > contract.MaxSessionID || !utf8.ValidString(id) {
			t.Fatalf("ChildSession(%q, %d, %d) = %q: %d bytes, valid %v", parent, step, index, id, len(id), utf8.ValidString(id))
		}
		if !contract.IsChildSession(parent, id) {
			t.Fatalf("IsChildSession(%q, %q) = false", parent, id)
		}
	})
}

func TestIsDelegatedSession(t *testing.T) {
	long := strings.Repeat("s", contract.MaxSessionID-len("/2.0"))
	child := contract.ChildSession(long, 2, 0)
	grandchild := contract.ChildSession(child, 4, 1)
	cases := []struct {
		root, id string
		want     bool
	}{
		{"s", "s/2.0", true},
		{"s", "s/2.0/5.1", true},
		{"s/2.0", "s/2.0/5.1", true},
		{"s", "s", false},
		{"s", "t/2.0", false},
		{"s", "ss/2.0", false},
		{"s", "s/x/2.0", false},
		{"s/2.0", "s/2.1/5.1", false},
		{"s/2.0/5.1", "s/2.0", false},
		// Cut from the front: they begin with no part of root but its end.
		{long, child, true},
		{long, grandchild, true},
		{child, grandchild, true},
		{long[1:] + "t", child, false},
		{long[1:] + "t", grandchild, false},
	}
	for _, c := range cases {
		if got := contract.IsDelegatedSession(c.root, c.id); got != c.want {
			t.Errorf("IsDelegatedSession(%q, %q) = %v, want %v", c.root, c.id, got, c.want)
		}
	}
}

// Every name ChildSessionAt makes at any depth below a root, each level
// under a revision of its own, is recognised as one of its delegated
// runs'.
func TestIsDelegatedSessionProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		root := rapid.StringOfN(rapid.Rune(), 1, contract.MaxSessionID, contract.MaxSessionID).Draw(t, "root")
		id := root
		for depth := rapid.IntRange(1, 6).Draw(t, "depth"); depth > 0; depth-- {
			rev := rapid.IntRange(0, contract.CurrentRevision).Draw(t, "revision")
			id = contract.ChildSessionAt(rev, id, rapid.Uint64Range(0, 1<<20).Draw(t, "step"), rapid.IntRange(0, 16).Draw(t, "index"))
		}
		if !contract.IsDelegatedSession(root, id) {
			t.Fatalf("IsDelegatedSession(%q, %q) = false", root, id)
		}
	})
}
