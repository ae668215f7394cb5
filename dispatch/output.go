package dispatch

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

// capOutput cuts o's content to at most limit bytes, marker included,
// at a rune boundary, and says so in a marker the model can read when the
// limit has room for one; o.Truncated says so either way. The kept prefix
// is copied so a huge output's buffer can be freed.
func capOutput(o contract.ToolOutcome, limit int) contract.ToolOutcome {
	if len(o.Content) <= limit {
		return o
	}
	total := len(o.Content)
	marker := fmt.Sprintf("\n[output truncated: %d of %d bytes shown]", limit, total)
	if len(marker) > limit {
		marker = ""
	}
	keep := limit - len(marker)
	// Back up to the start of a rune the cut splits; a byte that is not
	// part of a valid rune is one of its own, so at most UTFMax-1 bytes.
	start := keep
	for start > 0 && keep-start < utf8.UTFMax-1 && !utf8.RuneStart(o.Content[start]) {
		start--
	}
	if _, size := utf8.DecodeRuneInString(o.Content[start:]); start+size > keep {
		keep = start
	}
	if marker != "" {
		marker = fmt.Sprintf("\n[output truncated: %d of %d bytes shown]", keep, total)
	}
	var b strings.Builder
	b.Grow(keep + len(marker))
	b.WriteString(o.Content[:keep])
	b.WriteString(marker)
	o.Content = b.String()
	o.Truncated = true
	return o
}
