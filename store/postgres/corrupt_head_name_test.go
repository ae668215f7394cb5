package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
)

// A session's head row damaged on the server (edited by hand, restored
// from a bad copy) is met first by another process sharing the database,
// which reads it cold. Its error must name the session, whichever read
// meets it: an operator of three machines told only "object 1f2e...:
// corrupt object" has no way to know which conversation to repair.
func TestDamagedHeadRowNamesTheSession(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	writer := openBackend(t, url)
	st := store.New(writer)
	defer st.Close()
	recs := storetest.Script("r", 3)
	head, err := st.Append(ctx, "team-thread-7", recs[:2]...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := writer.pool.Exec(ctx, `UPDATE baton_objects SET bytes = overlay(bytes placing 'X' from 20 for 1) WHERE hash = $1`, head[:]); err != nil {
		t.Fatal(err)
	}
	reader := store.New(openBackend(t, url))
	defer reader.Close()
	tests := []struct {
		name string
		read func(ctx context.Context) error
	}{
		{"Head", func(ctx context.Context) error { _, err := reader.Head(ctx, "team-thread-7"); return err }},
		{"Records", func(ctx context.Context) error { _, err := reader.Records(ctx, "team-thread-7"); return err }},
		{"Append", func(ctx context.Context) error { _, err := reader.Append(ctx, "team-thread-7", recs[2]); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read(ctx)
			if !errors.Is(err, store.ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), `"team-thread-7"`) {
				t.Errorf("error %q does not name the session", err)
			}
			if strings.Count(err.Error(), "store:") != 1 {
				t.Errorf("error %q names the store more than once", err)
			}
		})
	}
}
