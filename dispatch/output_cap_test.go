package dispatch

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
)

// TestCapOutputProperty: whatever the cap, a capped outcome is at most
// cap bytes, keeps a prefix of the content, splits no character of
// UTF-8 text, and is marked truncated exactly when it was cut.
func TestCapOutputProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		content := rapid.String().Draw(t, "content")
		limit := rapid.IntRange(1, len(content)+8).Draw(t, "limit")
		got := capOutput(contract.ToolOutcome{Content: content}, limit)
		if len(got.Content) > limit {
			t.Fatalf("capOutput(%q, %d) = %q, %d bytes", content, limit, got.Content, len(got.Content))
		}
		if got.Truncated != (len(content) > limit) {
			t.Fatalf("capOutput(%q, %d): truncated %v", content, limit, got.Truncated)
		}
		kept, _, _ := strings.Cut(got.Content, "\n[output truncated: ")
		if !strings.HasPrefix(content, kept) || !utf8.ValidString(got.Content) {
			t.Fatalf("capOutput(%q, %d) = %q", content, limit, got.Content)
		}
	})
}

// TestCapOutputOfBytesProperty: for any bytes, text or not, a capped
// outcome is valid UTF-8 of at most cap bytes, keeps a prefix of the
// text strings.ToValidUTF8 makes of them, and is marked truncated
// exactly when that text is over the cap.
func TestCapOutputOfBytesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		content := string(rapid.SliceOf(rapid.Byte()).Draw(t, "content"))
		limit := rapid.IntRange(1, 2*len(content)+8).Draw(t, "limit")
		got := capOutput(contract.ToolOutcome{Content: content}, limit)
		valid := strings.ToValidUTF8(content, "\uFFFD")
		if len(got.Content) > limit || !utf8.ValidString(got.Content) {
			t.Fatalf("capOutput(%q, %d) = %q, %d bytes", content, limit, got.Content, len(got.Content))
		}
		if got.Truncated != (len(valid) > limit) {
			t.Fatalf("capOutput(%q, %d): truncated %v, text %d bytes", content, limit, got.Truncated, len(valid))
		}
		kept, _, _ := strings.Cut(got.Content, "\n[output truncated: ")
		if !strings.HasPrefix(valid, kept) {
			t.Fatalf("capOutput(%q, %d) = %q, not a prefix of %q", content, limit, got.Content, valid)
		}
	})
}
