package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ServerURL is the server tests use: BATON_TEST_POSTGRES, else the local
// default.
func ServerURL() string {
	if u := os.Getenv("BATON_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://127.0.0.1:5432/test"
}

// Admin connects to the test server for the test's duration, skipping the
// test when none answers (failing it when CI is set).
func Admin(t testing.TB) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("postgres at %s: %v", ServerURL(), err)
		}
		t.Skipf("no PostgreSQL at %s (%v); start one or set BATON_TEST_POSTGRES to run this test", ServerURL(), err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// SchemaURL makes a fresh schema, dropped after the test, and returns the
// server's URL with a search_path naming it.
func SchemaURL(t testing.TB) string {
	t.Helper()
	admin := Admin(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "baton_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
