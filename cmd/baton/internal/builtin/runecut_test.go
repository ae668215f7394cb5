package builtin

import (
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// TestRuneCutProperty: on UTF-8 text the cut splits no character and is
// the last boundary at or before n; on any bytes it is at most n and at
// most utf8.UTFMax-1 bytes before it.
func TestRuneCutProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.Bool().Draw(t, "text")
		var b []byte
		if text {
			b = []byte(rapid.String().Draw(t, "s"))
		} else {
			b = rapid.SliceOf(rapid.Byte()).Draw(t, "b")
		}
		n := rapid.IntRange(0, len(b)+2).Draw(t, "n")
		cut := runeCut(b, n)
		if cut > n || cut > len(b) || min(n, len(b))-cut >= utf8.UTFMax {
			t.Fatalf("runeCut(%q, %d) = %d", b, n, cut)
		}
		if !text {
			return
		}
		if !utf8.Valid(b[:cut]) || !utf8.Valid(b[cut:]) {
			t.Fatalf("runeCut(%q, %d) = %d splits a character", b, n, cut)
		}
		for i := cut + 1; i <= min(n, len(b)-1); i++ {
			if utf8.RuneStart(b[i]) {
				t.Fatalf("runeCut(%q, %d) = %d, but %d is a boundary", b, n, cut, i)
			}
		}
	})
}

// TestRuneEndProperty: what runeEnd keeps of a cut-off UTF-8 text is
// valid and loses only the unfinished character; on any bytes it drops
// fewer than utf8.UTFMax.
func TestRuneEndProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := []byte(rapid.String().Draw(t, "s"))
		b := s[:rapid.IntRange(0, len(s)).Draw(t, "n")]
		end := runeEnd(b)
		if end > len(b) || len(b)-end >= utf8.UTFMax {
			t.Fatalf("runeEnd(%q) = %d", b, end)
		}
		if !utf8.Valid(b[:end]) || !utf8.Valid(s[end:]) {
			t.Fatalf("runeEnd(%q) = %d splits a character", b, end)
		}
		if utf8.Valid(b) && end != len(b) {
			t.Fatalf("runeEnd(%q) = %d drops a whole character", b, end)
		}
	})
}
