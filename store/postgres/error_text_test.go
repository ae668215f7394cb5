package postgres

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// A URL whose search_path names no schema that exists is refused with
// what is wrong and how to mend it, the store named once.
func TestMissingSchemaSaysWhatIsWrongOnce(t *testing.T) {
	pgtest.Admin(t) // fails under CI when no server answers, rather than skipping
	u, err := url.Parse(pgtest.ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", "baton_no_such_schema")
	u.RawQuery = q.Encode()
	_, err = OpenBackend(context.Background(), u.String())
	want := `store: postgres: invalid input: search_path "baton_no_such_schema" names no schema that exists; create it with CREATE SCHEMA baton_no_such_schema, or name one that exists in the URL's search_path`
	if err == nil || err.Error() != want {
		t.Errorf("error mismatch (-want +got):\n%s", cmp.Diff(want, errText(err)))
	}
	if !errors.Is(err, store.ErrInvalid) {
		t.Errorf("error %v does not wrap store.ErrInvalid", err)
	}
}

// Each layer of a postgres error adds what it was doing, and the store
// is named once, at the start. errors.Is still finds the store's error.
func TestErrorsNameTheStoreOnce(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		do   func() error
		want string
		is   error
	}{
		{"bad URL", func() error { _, err := OpenBackend(ctx, "postgres://[::1"); return err },
			"store: postgres: invalid input: cannot parse", store.ErrInvalid},
		{"NUL in a session id", func() error { return unstorable("a\x00b") },
			`store: postgres: session id "a\x00b": invalid input: PostgreSQL cannot store NUL in it`, store.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if got := errText(err); !strings.HasPrefix(got, tt.want) {
				t.Errorf("error mismatch (-want +got):\n%s", cmp.Diff(tt.want, got))
			}
			if n := strings.Count(errText(err), "store: "); n != 1 {
				t.Errorf("%q names the store %d times, want once", err, n)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
