package postgres

import (
	"fmt"
	"strings"
)

// errorf is fmt.Errorf for this package's errors. Their formats begin
// with "store: ", and so do the errors they wrap, the store's own and
// this package's: each error among args is said without that prefix, so
// a message names the store once however many layers wrapped it. The
// errors are wrapped as they were, for errors.Is and errors.As.
func errorf(format string, args ...any) error {
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = unprefixed{err}
		}
	}
	return fmt.Errorf(format, args...)
}

// unprefixed is an error said without the "store: " it begins with.
type unprefixed struct{ err error }

func (u unprefixed) Error() string { return strings.TrimPrefix(u.err.Error(), "store: ") }
func (u unprefixed) Unwrap() error { return u.err }
