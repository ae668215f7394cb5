package cadence

// outsideStrings reports whether any byte of s, read as JSON, outside its
// strings matches: a scan that needs no decoding, for the checks the
// reducer makes on every call's arguments.
func outsideStrings(s string, match func(byte) bool) bool {
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && match(c):
			return true
		}
	}
	return false
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
