package contract

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// A key orders as its string does and gives it back; only strings of
// up to 16 bytes without a zero byte have one.
func TestSetKeysOrderAsTheirStrings(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		str := rapid.OneOf(rapid.StringN(0, 18, 18), rapid.StringMatching("[\\x00\\x01\\xffab]{0,17}"))
		a, b := str.Draw(t, "a"), str.Draw(t, "b")
		ka, okA := keyOf(a)
		kb, okB := keyOf(b)
		for _, c := range []struct {
			s  string
			k  setKey
			ok bool
		}{{a, ka, okA}, {b, kb, okB}} {
			if want := len(c.s) <= 16 && !strings.Contains(c.s, "\x00"); c.ok != want {
				t.Fatalf("keyOf(%q) ok %v, want %v", c.s, c.ok, want)
			}
			if c.ok && c.k.String() != c.s {
				t.Fatalf("keyOf(%q).String() = %q", c.s, c.k.String())
			}
		}
		if okA && okB {
			if got, want := compareKeys(ka, kb), strings.Compare(a, b); got != want {
				t.Fatalf("keys of %q and %q compare %d, the strings %d", a, b, got, want)
			}
		}
	})
}
