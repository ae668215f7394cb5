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
