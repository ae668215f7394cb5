package dispatch

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

// capOutput cuts o's content to at most limit bytes, marker included,
// at a rune boundary, and says so in a marker the model can read when the
// limit has room for one; o.Truncated says so either way. Bytes that are
// not UTF-8 are replaced first, as the session's encoding would replace
// them, so that the cap bounds the text the model is sent: one byte
// becomes a three-byte replacement character. The marker counts the
// tool's own bytes. The kept prefix is copied so a huge output's buffer
// can be freed.
func capOutput(o contract.ToolOutcome, limit int) contract.ToolOutcome {
	total := len(o.Content)
	text := o.Content
	if !utf8.ValidString(text) {
		var whole bool
		text, whole = validPrefix(text, limit)
		if whole && len(text) <= limit {
			o.Content = text
			return o
		}
	} else if total <= limit {
		return o
	}
	marker := fmt.Sprintf("\n[output truncated: %d of %d bytes shown]", limit, total)
	if len(marker) > limit {
		marker = ""
	}
	keep := min(limit-len(marker), len(text))
	// Back up to the start of a rune the cut splits; the text is valid
	// UTF-8, so at most UTFMax-1 bytes.
	for keep > 0 && keep < len(text) && !utf8.RuneStart(text[keep]) {
		keep--
	}
	if marker != "" {
		marker = fmt.Sprintf("\n[output truncated: %d of %d bytes shown]", keep, total)
	}
	var b strings.Builder
	b.Grow(keep + len(marker))
	b.WriteString(text[:keep])
	b.WriteString(marker)
	o.Content = b.String()
	o.Truncated = true
	return o
}

// validPrefix is s with each run of bytes that are not UTF-8 replaced by
// U+FFFD, as strings.ToValidUTF8 makes it, but only so far as to pass
// max bytes, so a huge binary output is not copied whole; whole says it
// is all of s.
func validPrefix(s string, max int) (string, bool) {
	var b strings.Builder
	b.Grow(min(len(s), max+utf8.UTFMax))
	bad := false
	for i := 0; i < len(s); {
		if b.Len() > max {
			return b.String(), false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if !bad {
				b.WriteString("\uFFFD")
			}
			bad = true
		} else {
			b.WriteString(s[i : i+size])
			bad = false
		}
		i += size
	}
	return b.String(), true
}
