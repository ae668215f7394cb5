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
	_, step, index, ok := lastStep(id)
	return ok && ChildSession(parent, step, index) == id
}

// MayBeChildSession reports whether id ends as the names ChildSession
// gives end ("/STEP.INDEX"), so that it may be the session of a delegate
// call under some parent. A host that lets clients name sessions refuses
// such names: a client must not drive, or read, a delegated run as if it
// were a thread of its own.
func MayBeChildSession(id string) bool {
	_, _, _, ok := lastStep(id)
	return ok
}

// IsDelegatedSession reports whether id is the session ChildSession
// names for a delegated run below root at any depth: that of one of
// root's delegate calls, or of one of theirs. An id cut from the front
// no longer begins with root's, so its "/STEP.INDEX" parts are taken
// off its end and put back on root's.
func IsDelegatedSession(root, id string) bool {
	type step struct {
		step  uint64
		index int
	}
	var steps []step // the deepest first
	for rest := id; ; {
		before, s, i, ok := lastStep(rest)
		if !ok {
			break
		}
		steps = append(steps, step{s, i})
		rest = before
	}
	for depth := 1; depth <= len(steps); depth++ {
		name := root
		for k := depth - 1; k >= 0; k-- {
			name = ChildSession(name, steps[k].step, steps[k].index)
		}
		if name == id {
			return true
		}
	}
	return false
}

// lastStep splits the "/STEP.INDEX" ChildSession puts at the end of id
// off what is before it.
func lastStep(id string) (before string, step uint64, index int, ok bool) {
	i := strings.LastIndexByte(id, '/')
	if i < 0 {
		return "", 0, 0, false
	}
	stepText, indexText, ok := strings.Cut(id[i+1:], ".")
	if !ok {
		return "", 0, 0, false
	}
	step, err := strconv.ParseUint(stepText, 10, 64)
	if err != nil {
		return "", 0, 0, false
	}
	index, err = strconv.Atoi(indexText)
	if err != nil || index < 0 {
		return "", 0, 0, false
	}
	return id[:i], step, index, true
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
