package store

import (
	"fmt"
	"strings"
	"sync"
)

// Opener opens a store named by a URL.
type Opener func(url string, opts ...Option) (Store, error)

var schemes sync.Map // scheme -> Opener

// RegisterScheme makes Open hand URLs of scheme (such as "postgres") to
// open; a backend package calls it from init, as database/sql drivers
// register. Registering a scheme twice panics, as a programming error.
func RegisterScheme(scheme string, open Opener) {
	if _, dup := schemes.LoadOrStore(scheme, open); dup {
		panic(fmt.Sprintf("store: scheme %q registered twice", scheme))
	}
}

// openerFor returns the opener for a URL: a registered scheme's, or one
// that explains the scheme is unknown. A name without "scheme://" is a
// folder.
func openerFor(name string) (Opener, bool) {
	scheme, _, ok := strings.Cut(name, "://")
	if !ok || !isScheme(scheme) {
		return nil, false
	}
	if o, ok := schemes.Load(scheme); ok {
		return o.(Opener), true
	}
	return func(string, ...Option) (Store, error) {
		return nil, errorf("store: open: %w: no backend for %s:// (a program opens postgres:// once it imports github.com/batonrt/baton/store/postgres)", ErrInvalid, scheme)
	}, true
}

// isScheme reports whether s is a URL scheme as RFC 3986 spells one.
func isScheme(s string) bool {
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}
