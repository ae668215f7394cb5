package contract

import (
	"strconv"
	"strings"
)

// MaxSessionID is the longest session id in bytes a store takes; a
// delegate call's session id is kept within it whatever the depth.
const MaxSessionID = 80

// ChildSession names the session of the delegate call at index i of the
// batch dispatched by step: the parent's id and "/STEP.INDEX", unique
// within the parent and short whatever the depth. A parent id too long
// to extend is cut from the front, on a rune boundary.
func ChildSession(parent string, step uint64, i int) string {
	suffix := "/" + strconv.FormatUint(step, 10) + "." + strconv.Itoa(i)
	return cutFront(parent, MaxSessionID-len(suffix)) + suffix
}

// IsChildSession reports whether id is the session ChildSession names for
// one of parent's delegate calls.
func IsChildSession(parent, id string) bool {
	i := strings.LastIndexByte(id, '/')
	if i < 0 {
		return false
	}
	stepText, indexText, ok := strings.Cut(id[i+1:], ".")
	if !ok {
		return false
	}
	step, err := strconv.ParseUint(stepText, 10, 64)
	if err != nil {
		return false
	}
	index, err := strconv.Atoi(indexText)
	if err != nil || index < 0 {
		return false
	}
	return ChildSession(parent, step, index) == id
}

// cutFront keeps at most max bytes of the end of s, starting on a rune.
func cutFront(s string, max int) string {
	if over := len(s) - max; over > 0 {
		s = s[over:]
		for len(s) > 0 && s[0]&0xC0 == 0x80 {
			s = s[1:]
		}
	}
	return s
}
