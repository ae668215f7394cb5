package cadence

import (
	"testing"

	"pgregory.net/rapid"
)

// outsideStringsByState is the scan as a one-loop state machine, the way
// it was first written: the reference outsideStrings must agree with.
func outsideStringsByState(s string, match func(byte) bool) bool {
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

// outsideStrings agrees with the state machine on any text, JSON or not:
// quotes, escapes, unterminated strings and white space anywhere.
func TestOutsideStringsAgreesWithTheStateMachine(t *testing.T) {
	piece := rapid.SampledFrom([]string{`"`, `\`, `\"`, `\\`, " ", "\t", "\n", "\r", "a", "1", "-", "{", "}", ":", ",", "é", "\x00"})
	isDigit := func(c byte) bool { return c == '-' || c >= '0' && c <= '9' }
	rapid.Check(t, func(t *rapid.T) {
		var s string
		for _, p := range rapid.SliceOfN(piece, 0, 24).Draw(t, "pieces") {
			s += p
		}
		for _, m := range []func(byte) bool{isJSONSpace, isDigit} {
			if got, want := outsideStrings(s, m), outsideStringsByState(s, m); got != want {
				t.Fatalf("outsideStrings(%q) = %v, the state machine says %v", s, got, want)
			}
		}
	})
}
