package contract_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// Two threads whose long ids end alike must not give their delegate calls
// one session: in a shared store one thread's child run would land in,
// resume or be read as the other's.
func TestChildSessionsOfLongParentsSharingATailDiffer(t *testing.T) {
	tail := strings.Repeat("t", contract.MaxSessionID)
	for _, n := range []int{contract.MaxSessionID - 4, contract.MaxSessionID - 1, contract.MaxSessionID} {
		a, b := "a"+tail[:n-1], "b"+tail[:n-1]
		ca, cb := contract.ChildSession(a, 2, 0), contract.ChildSession(b, 2, 0)
		if ca == cb {
			t.Errorf("parents of %d bytes %q and %q both name their child %q", n, a, b, ca)
		}
		if !contract.IsChildSession(a, ca) || contract.IsChildSession(a, cb) {
			t.Errorf("IsChildSession(%q, ·) = %v for its own child, %v for the other's; want true, false", a, contract.IsChildSession(a, ca), contract.IsChildSession(a, cb))
		}
		if contract.IsDelegatedSession(a, contract.ChildSession(cb, 5, 1)) {
			t.Errorf("IsDelegatedSession(%q, ·) = true for a grandchild of %q", a, b)
		}
	}
}

// tailSharing draws two ids of any lengths within MaxSessionID that may
// share a long tail, as threads named by one scheme do.
func tailSharing(t *rapid.T) (string, string) {
	n := rapid.IntRange(0, contract.MaxSessionID).Draw(t, "tail runes")
	tail := rapid.StringOfN(rapid.RuneFrom([]rune("ab/.0é")), n, n, -1).Draw(t, "tail")
	head := func(label string) string {
		h := rapid.StringOfN(rapid.RuneFrom([]rune("xyz/1")), 1, 4, -1).Draw(t, label)
		return cutFront(h+tail, contract.MaxSessionID)
	}
	return head("head a"), head("head b")
}

// cutFront keeps at most max bytes of the end of s, starting on a rune.
func cutFront(s string, max int) string {
	for len(s) > max {
		_, n := utf8.DecodeRuneInString(s)
		s = s[n:]
	}
	return s
}

// Distinct parents give their delegate calls distinct sessions, at every
// depth, whatever their lengths; every name is valid UTF-8 within
// MaxSessionID.
func TestChildSessionsOfDistinctParentsDiffer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := tailSharing(t)
		if a == b {
			t.Skip("equal parents")
		}
		for depth := rapid.IntRange(1, 4).Draw(t, "depth"); depth > 0; depth-- {
			step := rapid.Uint64Range(0, 1<<40).Draw(t, "step")
			index := rapid.IntRange(0, 1<<20).Draw(t, "index")
			ca, cb := contract.ChildSession(a, step, index), contract.ChildSession(b, step, index)
			for _, id := range []string{ca, cb} {
				if len(id) > contract.MaxSessionID || !utf8.ValidString(id) {
					t.Fatalf("child name %q: %d bytes, valid UTF-8 %v", id, len(id), utf8.ValidString(id))
				}
			}
			if ca == cb {
				t.Fatalf("parents %q and %q both name their child %q", a, b, ca)
			}
			a, b = ca, cb
		}
	})
}

// Below a long root, each level named under a revision of its own, with
// ids whose bytes may look like a digest's, every name is recognised as
// the root's delegated run's and as its parent's child.
func TestIsDelegatedSessionMixedRevisions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(contract.MaxSessionID-24, contract.MaxSessionID).Draw(t, "root runes")
		root := rapid.StringOfN(rapid.RuneFrom([]rune("~:0af/.é")), n, n, contract.MaxSessionID).Draw(t, "root")
		id := root
		for depth := rapid.IntRange(1, 8).Draw(t, "depth"); depth > 0; depth-- {
			rev := rapid.SampledFrom([]int{contract.RevisionChildDigest - 1, contract.RevisionChildDigest}).Draw(t, "revision")
			parent := id
			id = contract.ChildSessionAt(rev, id, rapid.Uint64Range(0, 200).Draw(t, "step"), rapid.IntRange(0, 3).Draw(t, "index"))
			if !contract.IsChildSession(parent, id) {
				t.Fatalf("IsChildSession(%q, %q) = false", parent, id)
			}
			if !contract.IsDelegatedSession(root, id) {
				t.Fatalf("IsDelegatedSession(%q, %q) = false", root, id)
			}
		}
	})
}
