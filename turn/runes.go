package turn

import "unicode/utf8"

// show returns what of s, after the bytes held back from the block's
// earlier deltas, a delta event may carry now: valid UTF-8, without the
// start of a character s leaves unfinished, which waits for the next
// delta. Servers that stream byte-level tokens split characters between
// chunks, and half a character reaches a client as U+FFFD once encoded.
func (d *deltas) show(s string) string {
	if d.held != "" {
		s, d.held = d.held+s, ""
	}
	if n := unfinished(s); n > 0 {
		s, d.held = s[:len(s)-n], s[len(s)-n:]
	}
	return validText(s)
}

// unfinished is the length of the start of a character that ends s,
// whose remaining bytes may still come; 0 when s ends whole.
func unfinished(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(s[i]) {
			if utf8.FullRuneInString(s[i:]) {
				return 0
			}
			return len(s) - i
		}
	}
	return 0
}
