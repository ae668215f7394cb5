package builtin

import "unicode/utf8"

// runeCut is where to cut b to at most n bytes without splitting a
// character: n, or the start of a character that straddles it. Bytes
// that are not UTF-8 count as characters of their own, so the cut backs
// up at most utf8.UTFMax-1 bytes.
func runeCut(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	start := n
	for start > 0 && n-start < utf8.UTFMax-1 && !utf8.RuneStart(b[start]) {
		start--
	}
	if start < n && !utf8.FullRune(b[start:n]) {
		return start
	}
	return n
}

// runeEnd is the length of b without a character its last bytes begin
// and do not finish: what to keep of b when what followed it is cut off.
func runeEnd(b []byte) int {
	n := len(b)
	start := n - 1
	for start > 0 && n-start < utf8.UTFMax && !utf8.RuneStart(b[start]) {
		start--
	}
	if start >= 0 && !utf8.FullRune(b[start:]) {
		return start
	}
	return n
}
