package postgres

import (
	"errors"
	"net/url"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
)

// schemaV1 is the layout release 1 created: owners had no advertised
// address.
const schemaV1 = `CREATE TABLE baton_schema (version int NOT NULL);
	INSERT INTO baton_schema (version) VALUES (1);
	CREATE TABLE baton_objects (hash bytea PRIMARY KEY, bytes bytea NOT NULL);
	CREATE TABLE baton_refs (kind text NOT NULL, session text NOT NULL, hash bytea NOT NULL, PRIMARY KEY (kind, session));
	CREATE TABLE baton_owners (session text PRIMARY KEY, epoch bigint NOT NULL);`

// A database an older release made must open and carry every session
// over: its objects, heads and checkpoints read back as before, and its
// owner epochs go on from where they were, so an owner of the old release
// still running cannot commit past a lock taken under the new one.
func TestMigrateFromSchemaVersion1(t *testing.T) {
	ctx := t.Context()
	// Sessions written by this release, copied into the old layout.
	src := openBackend(t, pgtest.SchemaURL(t))
	st := store.New(src)
	defer st.Close()
	for _, s := range []string{"a", "b"} {
		for range 2 {
			release, err := st.Lock(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			if err := release(); err != nil {
				t.Fatal(err)
			}
		}
	}
	recs := storetest.Script("r", 4)
	head, err := st.Append(ctx, "a", recs...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, "b", recs[:2]...); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveCheckpoint(ctx, "a", head, contract.RunSnapshot{SessionID: "a", Phase: contract.PhaseSettled, Steps: 4}); err != nil {
		t.Fatal(err)
	}
	cp, err := st.Checkpoint(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}

	oldURL := pgtest.SchemaURL(t)
	old := searchPath(t, oldURL)
	admin := pgtest.Admin(t)
	if _, err := admin.Exec(ctx, `SET search_path TO `+old+`; `+schemaV1+`
		INSERT INTO baton_objects SELECT * FROM `+src.schema+`.baton_objects;
		INSERT INTO baton_refs SELECT * FROM `+src.schema+`.baton_refs;
		INSERT INTO baton_owners SELECT session, epoch FROM `+src.schema+`.baton_owners;
		RESET search_path`); err != nil {
		t.Fatal(err)
	}

	b := openBackend(t, oldURL)
	mig := store.New(b)
	defer mig.Close()
	var version int
	if err := b.pool.QueryRow(ctx, `SELECT version FROM baton_schema`).Scan(&version); err != nil || version != len(migrations) {
		t.Fatalf("schema version after open = %d, %v; want %d", version, err, len(migrations))
	}
	sessions, err := mig.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a", "b"}, sessions); d != "" {
		t.Fatalf("sessions mismatch (-want +got):\n%s", d)
	}
	for s, n := range map[string]int{"a": 4, "b": 2} {
		got, err := mig.Records(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(recs[:n], got); d != "" {
			t.Fatalf("records of %s mismatch (-want +got):\n%s", s, d)
		}
	}
	if got, err := mig.Checkpoint(ctx, "a"); err != nil || !cmp.Equal(cp, got) {
		t.Fatalf("checkpoint of a after the migration = %+v, %v; want %+v", got, err, cp)
	}
	if err := mig.Verify(ctx); err != nil {
		t.Fatalf("verify after the migration: %v", err)
	}
	if orphans, err := b.Orphans(ctx); err != nil || len(orphans) != 0 {
		t.Fatalf("orphans after the migration = %v, %v; want none: no old owner advertised an address", orphans, err)
	}
	if _, err := b.Owner(ctx, "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("owner of a after the migration: got %v, want ErrNotFound", err)
	}

	b.Advertise("http://node-2")
	release, err := mig.Lock(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if epoch, _ := b.epoch("a"); epoch != 3 {
		t.Fatalf("owner epoch of a lock taken after the migration = %d; want 3, after the two taken before", epoch)
	}
	if addr, err := b.Owner(ctx, "a"); err != nil || addr != "http://node-2" {
		t.Fatalf("owner of a = %q, %v; want the address advertised", addr, err)
	}
	if _, err := mig.Append(ctx, "a", storetest.Script("r", 5)[4]); err != nil {
		t.Fatalf("append after the migration: %v", err)
	}
}

// searchPath returns the schema a pgtest URL names.
func searchPath(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return pgx.Identifier{u.Query().Get("search_path")}.Sanitize()
}
