package contract

import (
	"slices"
	"strconv"
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

// A hash's key is the key of its hexadecimal string, so HasHex and
// WithHex agree with Has and With on that string.
func TestHexKeyIsTheKeyOfTheHexString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := rapid.OneOf(rapid.Uint64(), rapid.Uint64Range(0, 300), rapid.SampledFrom([]uint64{0, 1, 15, 16, 1<<63 - 1, 1 << 63, 1<<64 - 1})).Draw(t, "h")
		str := strconv.FormatUint(h, 16)
		want, ok := keyOf(str)
		if !ok {
			t.Fatalf("%q has no key", str)
		}
		if got := hexKey(h); got != want {
			t.Fatalf("hexKey(%#x) = %v, the key of %q is %v", h, got, str, want)
		}
		set := SortedSetOf(rapid.SliceOfN(rapid.StringMatching(`[0-9a-f]{1,16}`), 0, 100).Draw(t, "set")...)
		if got, want := set.HasHex(h), set.Has(str); got != want {
			t.Fatalf("HasHex(%#x) = %v, Has(%q) = %v", h, got, str, want)
		}
		if got, want := set.WithHex(h), set.With(str); !got.Equal(want) {
			t.Fatalf("WithHex(%#x) and With(%q) differ: %v, %v", h, str, slices.Collect(got.All()), slices.Collect(want.All()))
		}
	})
}

// Adding nothing leaves the set as it was and allocates nothing: the
// no-progress guard extends its set by nothing after a round of tool
// calls that brought no new result.
func TestWithNothingAllocatesNothing(t *testing.T) {
	for _, size := range []int{10, 100} {
		set := SortedSetOf()
		for i := range size {
			set = set.WithHex(uint64(i) * 0x9e3779b97f4a7c15)
		}
		var got SortedSet
		if n := testing.AllocsPerRun(100, func() { got = set.WithHex() }); n > 0 {
			t.Errorf("a set of %d: %v allocations, want none", size, n)
		}
		if !got.Equal(set) {
			t.Errorf("a set of %d: WithHex() changed it", size)
		}
	}
}
