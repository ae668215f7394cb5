package vfs

import (
	"strconv"
	"strings"
)

// kernelAtLeast reports whether a kernel release string such as
// "6.1.0-13-amd64" names version major.minor or later; an unreadable one
// does not.
func kernelAtLeast(release string, major, minor int) bool {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err := strconv.Atoi(parts[0])
	if err != nil {
		return false
	}
	mi, err := strconv.Atoi(strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}
