package store

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

// MaxSessionID is the longest session id in bytes; escaped, it still fits
// a file name.
const MaxSessionID = contract.MaxSessionID

func checkSession(id string) error {
	switch {
	case id == "":
		return errorf("store: session id: %w: empty", ErrInvalid)
	case len(id) > MaxSessionID:
		return errorf("store: session id: %w: %d bytes, at most %d", ErrInvalid, len(id), MaxSessionID)
	case !utf8.ValidString(id):
		return errorf("store: session id %q: %w: not UTF-8", id, ErrInvalid)
	}
	return nil
}

func plainByte(c byte) bool {
	return c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// escapeSession turns any session id into a file name: bytes outside
// [A-Za-z0-9_-] become %XX, so no name contains a slash or starts with a
// dot, which is what temporary files start with.
func escapeSession(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		if c := id[i]; plainByte(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func unescapeSession(name string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case plainByte(c):
			b.WriteByte(c)
		case c == '%' && i+2 < len(name):
			v, err := strconv.ParseUint(name[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(v))
			i += 2
		default:
			return "", false
		}
	}
	id := b.String()
	return id, checkSession(id) == nil && escapeSession(id) == name
}
