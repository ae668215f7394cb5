package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/batonrt/baton/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migrations[i] takes the schema from version i to i+1; a release only
// ever appends to it.
var migrations = []string{
	`CREATE TABLE baton_objects (hash bytea PRIMARY KEY, bytes bytea NOT NULL);
	CREATE TABLE baton_refs (kind text NOT NULL, session text NOT NULL, hash bytea NOT NULL, PRIMARY KEY (kind, session));
	CREATE TABLE baton_owners (session text PRIMARY KEY, epoch bigint NOT NULL);`,
	// The address each owner advertises, so that other nodes can hand it
	// the requests for the sessions it drives.
	`ALTER TABLE baton_owners ADD COLUMN addr text NOT NULL DEFAULT '';`,
}

// migrateKey is the advisory lock that serializes migrations of one
// database, so two processes starting at once do not both create tables.
const migrateKey = 0x6261746f6e000001

func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return ioErr("migrate", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateKey)); err != nil {
		return ioErr("migrate", err)
	}
	// Created only when missing: CREATE TABLE IF NOT EXISTS asks for the
	// right to create tables even when the table is there, which a role
	// that may only read and write them lacks.
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT to_regclass(format('%I.baton_schema', current_schema())) IS NOT NULL`).Scan(&exists); err != nil {
		return ioErr("migrate", err)
	}
	if !exists {
		if _, err := tx.Exec(ctx, `CREATE TABLE baton_schema (version int NOT NULL)`); err != nil {
			return ioErr("migrate", err)
		}
	}
	var v int
	err = tx.QueryRow(ctx, `SELECT version FROM baton_schema`).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		_, err = tx.Exec(ctx, `INSERT INTO baton_schema (version) VALUES (0)`)
	}
	if err != nil {
		return ioErr("migrate", err)
	}
	if v > len(migrations) {
		return errorf("store: postgres: %w: schema version %d, this release knows up to %d", store.ErrSchemaVersion, v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		if _, err := tx.Exec(ctx, migrations[i]); err != nil {
			return ioErr(fmt.Sprintf("migrate to version %d", i+1), err)
		}
	}
	if v < len(migrations) {
		if _, err := tx.Exec(ctx, `UPDATE baton_schema SET version = $1`, len(migrations)); err != nil {
			return ioErr("migrate", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return ioErr("migrate", err)
	}
	return nil
}
