package turn

import (
	"strings"
	"unicode/utf8"
)

// validText replaces each run of bytes that are not UTF-8 with U+FFFD, as
// the conductor does with input and tool output. A store keeps valid
// UTF-8 only, so a reply that went on as it came would give the live run
// other text (and another token count) than a resume or replay reads.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
