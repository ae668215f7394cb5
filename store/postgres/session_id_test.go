package postgres

import (
	"bytes"
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
)

// PostgreSQL text cannot hold NUL, which other stores allow in a session
// id: such an id is bad input (or, read, a session that does not exist),
// not a failure of the database, which a host would retry or page about.
func TestSessionIDWithNUL(t *testing.T) {
	ctx := t.Context()
	b := openBackend(t, pgtest.SchemaURL(t))
	st := store.New(b)
	defer st.Close()
	const id = "a\x00b"
	recs := storetest.Script("r", 1)
	mem := store.NewMemory()
	if _, err := mem.Append(ctx, id, recs...); err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := mem.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		call func() error
		want error
	}{
		{"Append", func() error { _, err := st.Append(ctx, id, recs...); return err }, store.ErrInvalid},
		{"Lock", func() error { _, err := st.Lock(ctx, id); return err }, store.ErrInvalid},
		{"Head", func() error { _, err := st.Head(ctx, id); return err }, store.ErrNotFound},
		{"Records", func() error { _, err := st.Records(ctx, id); return err }, store.ErrNotFound},
		{"Checkpoint", func() error { _, err := st.Checkpoint(ctx, id); return err }, store.ErrNotFound},
		{"Owner", func() error { _, err := b.Owner(ctx, id); return err }, store.ErrNotFound},
		{"Import", func() error { _, err := st.Import(ctx, &export); return err }, store.ErrInvalid},
	} {
		if err := c.call(); !errors.Is(err, c.want) || errors.Is(err, store.ErrIO) {
			t.Errorf("%s of a session id with NUL: got %v, want %v", c.name, err, c.want)
		}
	}
	if ids, err := st.Sessions(ctx); err != nil || len(ids) != 0 {
		t.Errorf("sessions = %q, %v; want none", ids, err)
	}
}
