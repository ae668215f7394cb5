package cadence

// outsideStrings reports whether any byte of s, read as JSON, outside its
// strings matches: a scan that needs no decoding, for the checks the
// reducer makes on every call's arguments. A string's bytes are passed
// over in a loop of their own, which looks only for its end.
func outsideStrings(s string, match func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '"' {
			if match(c) {
				return true
			}
			continue
		}
		for i++; i < len(s) && s[i] != '"'; i++ {
			if s[i] == '\\' {
				i++
			}
		}
	}
	return false
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
