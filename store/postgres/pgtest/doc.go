// Package pgtest gives tests a PostgreSQL schema of their own: SchemaURL
// makes a fresh schema on the server BATON_TEST_POSTGRES names (default
// postgres://127.0.0.1:5432/test), drops it when the test ends, and skips
// the test with one line when no server answers, or fails it when CI is
// set. It imports pgx only.
package pgtest
