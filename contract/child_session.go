package contract

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxSessionID is the longest session id in bytes a store takes; a
// delegate call's session id is kept within it whatever the depth.
const MaxSessionID = 80

// A child's name whose parent id was cut to fit begins, from
// RevisionChildDigest on, with digestMark, the first digestHex hex digits
// of the SHA-256 of the whole parent id, and digestEnd: parents that end
// alike then still name their children apart.
const (
	digestMark = "~"
	digestHex  = 16
	digestEnd  = ":"
	digestLen  = len(digestMark) + digestHex + len(digestEnd)
)

// ChildSession names the session of the delegate call at index i of the
// batch dispatched by step, as runs of CurrentRevision do (see
// ChildSessionAt).
func ChildSession(parent string, step uint64, i int) string {
	return ChildSessionAt(CurrentRevision, parent, step, i)
}

// ChildSessionAt names the session of the delegate call at index i of
// the batch dispatched by step, as the rules of revision rev do: the
// parent's id and "/STEP.INDEX", unique within the parent and short
// whatever the depth. A parent id too long to extend is cut from the
// front, on a rune boundary; from RevisionChildDigest on, the name then
// begins with a digest of the whole parent id ("~" and 16 hex digits,
// then ":"), so distinct parents name their children apart. Earlier
// revisions gave parents that end alike the same children's names; runs
// recorded under them keep those names.
func ChildSessionAt(rev int, parent string, step uint64, i int) string {
	suffix := stepSuffix(step, i)
	if rev < RevisionChildDigest {
		return cutName(parent, suffix)
	}
	return digestName(parent, suffix)
}

// stepSuffix is the "/STEP.INDEX" that ends a child's name.
func stepSuffix(step uint64, i int) string {
	return "/" + strconv.FormatUint(step, 10) + "." + strconv.Itoa(i)
}

// cutName is a child's name under revisions before RevisionChildDigest.
func cutName(parent, suffix string) string {
	return cutFront(parent, MaxSessionID-len(suffix)) + suffix
}

// digestName is a child's name from RevisionChildDigest on: cutName's
// while the parent id fits whole.
func digestName(parent, suffix string) string {
	if len(parent)+len(suffix) <= MaxSessionID {
		return parent + suffix
	}
	sum := sha256.Sum256([]byte(parent))
	return digestMark + hex.EncodeToString(sum[:digestHex/2]) + digestEnd + cutFront(parent, MaxSessionID-digestLen-len(suffix)) + suffix
}

// childNames returns the names of parent's child for suffix under either
// rule, one name when they agree.
func childNames(parent, suffix string) []string {
	cut, digest := cutName(parent, suffix), digestName(parent, suffix)
	if cut == digest {
		return []string{cut}
	}
	return []string{cut, digest}
}

// IsChildSession reports whether id is the session ChildSessionAt names,
// under any revision, for one of parent's delegate calls.
func IsChildSession(parent, id string) bool {
	_, step, index, ok := lastStep(id)
	return ok && slices.Contains(childNames(parent, stepSuffix(step, index)), id)
}

// MayBeChildSession reports whether id ends as the names ChildSessionAt
// gives end ("/STEP.INDEX"), so that it may be the session of a delegate
// call under some parent, or begins as the names it gives a cut parent's
// children begin, so that a child of id's may be named as another
// parent's is. A host that lets clients name sessions refuses such names:
// a client must not drive, or read, a delegated run as if it were a
// thread of its own.
func MayBeChildSession(id string) bool {
	_, _, _, ok := lastStep(id)
	return ok || hasDigest(id)
}

// hasDigest reports whether id begins with a parent's digest as
// digestName writes it.
func hasDigest(id string) bool {
	if len(id) < digestLen || !strings.HasPrefix(id, digestMark) || id[digestLen-len(digestEnd):digestLen] != digestEnd {
		return false
	}
	for _, c := range []byte(id[len(digestMark) : len(digestMark)+digestHex]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// IsDelegatedSession reports whether id is the session ChildSessionAt
// names, under any revision, for a delegated run below root at any
// depth: that of one of root's delegate calls, or of one of theirs. An
// id cut from the front no longer begins with root's, so its
// "/STEP.INDEX" parts are taken off its end and put back on root's,
// under either rule at each depth: a delegate's run may follow another
// revision than its parent's.
func IsDelegatedSession(root, id string) bool {
	var suffixes []string // the deepest first
	for rest := id; ; {
		before, s, i, ok := lastStep(rest)
		if !ok {
			break
		}
		suffixes = append(suffixes, stepSuffix(s, i))
		rest = before
	}
	// No delegated run is deeper than the depth cap allows.
	for depth := 1; depth <= min(len(suffixes), MaxDelegationDepthLimit); depth++ {
		if namedBelow(root, id, suffixes[:depth]) {
			return true
		}
	}
	return false
}

// namedBelow reports whether id is a name of the descendant of root
// reached through suffixes, the deepest first. The names a level may have
// are followed from root, at most two a name, keeping only those that end
// as the level's name must for id to descend from it (endings).
func namedBelow(root, id string, suffixes []string) bool {
	ends, ok := endings(id, suffixes)
	if !ok || !ends[0].fits(root) {
		return false
	}
	names := map[string]bool{root: true}
	for k := len(suffixes) - 1; k >= 0; k-- {
		next := make(map[string]bool, 2*len(names))
		for n := range names {
			for _, c := range childNames(n, suffixes[k]) {
				if ends[len(suffixes)-k].fits(c) {
					next[c] = true
				}
			}
		}
		names = next
	}
	return names[id]
}

// An ending is what a name must end with, or be when whole.
type ending struct {
	text  string
	whole bool
}

func (e ending) fits(name string) bool {
	if e.whole {
		return name == e.text
	}
	return strings.HasSuffix(name, e.text)
}

// endings returns, for each level from root (0) down to id, what the
// level's name must end with for id to descend from it through suffixes
// (the deepest first); false when no name can. A name ends with its
// parent's kept end and its suffix; a digest before the kept end (at most
// digestLen bytes, the last of them digestEnd) hides the rest.
func endings(id string, suffixes []string) ([]ending, bool) {
	ends := make([]ending, len(suffixes)+1)
	e := ending{id, true}
	for k, suffix := range suffixes {
		ends[len(suffixes)-k] = e
		var ok bool
		if e, ok = e.parent(suffix); !ok {
			return nil, false
		}
	}
	ends[0] = e
	return ends, true
}

// parent returns what the parent of a name ending with e must end with,
// given the name's suffix.
func (e ending) parent(suffix string) (ending, bool) {
	if !e.whole && len(e.text) <= len(suffix) {
		return ending{}, strings.HasSuffix(suffix, e.text)
	}
	if !strings.HasSuffix(e.text, suffix) {
		return ending{}, false
	}
	u := e.text[:len(e.text)-len(suffix)]
	cut := len(e.text) > MaxSessionID-utf8.UTFMax
	digest := hasDigest(u)
	if !e.whole {
		cut = true
		digest = len(u) <= MaxSessionID-digestLen-len(suffix) || strings.Contains(u, digestEnd)
	}
	switch {
	case digest:
		return ending{u[min(len(u), digestLen):], false}, true
	case cut:
		return ending{u, false}, true
	}
	return ending{u, true}, true
}

// lastStep splits the "/STEP.INDEX" ChildSessionAt puts at the end of id
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
