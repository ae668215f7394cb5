package postgres

import (
	"context"
	"net/url"
	"testing"

	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
	"github.com/jackc/pgx/v5"
)

// A schema migrated once by its owner serves processes that log in with a
// role allowed only to read and write its tables, as production setups
// grant: opening must not ask for the right to create tables when none
// is missing.
func TestOpenWithoutCreatePrivilege(t *testing.T) {
	ctx := t.Context()
	u := pgtest.SchemaURL(t)
	if err := openBackend(t, u).Close(); err != nil {
		t.Fatal(err)
	}
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	schema := parsed.Query().Get("search_path")
	role := pgx.Identifier{schema + "_app"}.Sanitize()
	admin := pgtest.Admin(t)
	for _, q := range []string{
		`CREATE ROLE ` + role + ` LOGIN`,
		`GRANT USAGE ON SCHEMA ` + schema + ` TO ` + role,
		`GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA ` + schema + ` TO ` + role,
	} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, q := range []string{`DROP OWNED BY ` + role, `DROP ROLE ` + role} {
			if _, err := admin.Exec(context.Background(), q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	})
	parsed.User = url.User(schema + "_app")
	st, err := Open(ctx, parsed.String())
	if err != nil {
		t.Fatalf("open as a role that may only read and write the tables: %v", err)
	}
	defer st.Close()
	if _, err := st.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, "s", storetest.Script("r", 2)...); err != nil {
		t.Fatal(err)
	}
}
