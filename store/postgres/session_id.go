package postgres

import (
	"strings"

	"github.com/batonrt/baton/store"
)

// unstorable says why a session id cannot be stored here: PostgreSQL text
// holds no NUL, which other stores allow in an id. Such an id is bad
// input, not a failure of the database.
func unstorable(session string) error {
	if !strings.Contains(session, "\x00") {
		return nil
	}
	return errorf("store: postgres: session id %q: %w: PostgreSQL cannot store NUL in it", session, store.ErrInvalid)
}
