package builtin

import "testing"

// innocentEnvQueries connect a database client to where a variable of
// the environment says; approving them must not approve a connection
// read from another variable, nor another query.
var innocentEnvQueries = []string{
	`psql "$DATABASE_URL" -c 'select 1'`, `mongosh "$MONGODB_URI" --eval 'db.t.findOne()'`,
	`sqlite3 "$DB" 'select 1'`,
}

// TestShellKeysOfDatabaseClientsConnectedByAVariable: a client's
// connection (psql's database or user operand, -d, -h, -p, -U; mysql's
// -h, -u, -D; mongosh's connection string; the database file of sqlite3
// and duckdb) given as a quoted variable is keyed by the call as written,
// "$NAME" and all, with "$NAME=env" where the line does not set it, as
// for arithmetic: the same line approved again means the same thing in
// the same environment. A variable where the client reads what it runs
// (-c "$Q"), an unquoted one, which sh splits, or one the line computes
// (U=$(cat f)), whose value may be an option that runs a shell line
// (-c\! rm -rf x), leaves the call without keys (nil).
func TestShellKeysOfDatabaseClientsConnectedByAVariable(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{`psql "$DATABASE_URL" -c 'select 1'`, []string{"$DATABASE_URL=env", `psql "$DATABASE_URL" -c 'select 1'`}},
		{`psql "${DATABASE_URL}" -c 'select 1'`, []string{"$DATABASE_URL=env", `psql "$DATABASE_URL" -c 'select 1'`}},
		{`psql "$DATABASE_URL" -c 'drop table t'`, []string{"$DATABASE_URL=env", `psql "$DATABASE_URL" -c 'drop table t'`}},
		{`psql "$OTHER_URL" -c 'select 1'`, []string{"$OTHER_URL=env", `psql "$OTHER_URL" -c 'select 1'`}},
		{`psql -d "$DATABASE_URL" -Atc 'select 1'`, []string{"$DATABASE_URL=env", `psql -d "$DATABASE_URL" -Atc 'select 1'`}},
		{`psql -h "$PGHOST" -U "$PGUSER" test -c 'select 1'`, []string{"$PGHOST=env", "$PGUSER=env", `psql -h "$PGHOST" -U "$PGUSER" test -c 'select 1'`}},
		{`U=postgres://h/db; psql "$U" -c 'select 1'`, []string{"U=postgres://h/db", `psql "$U" -c 'select 1'`}},
		{`mysql -h "$DB_HOST" -e 'select 1'`, []string{"$DB_HOST=env", `mysql -h "$DB_HOST" -e 'select 1'`}},
		{`mongosh "$MONGODB_URI" --eval 'db.t.findOne()'`, []string{"$MONGODB_URI=env", `mongosh "$MONGODB_URI" --eval 'db.t.findOne()'`}},
		{`sqlite3 "$DB" 'select 1'`, []string{"$DB=env", `sqlite3 "$DB" 'select 1'`}},
		{`duckdb "$DB" -c 'select 1'`, []string{"$DB=env", `duckdb "$DB" -c 'select 1'`}},
		{`psql "$DATABASE_URL" -c "$Q"`, nil},
		{`psql -c "$Q"`, nil},
		{`psql "$DATABASE_URL" -v "$X" -c 'select 1'`, nil},
		{`psql $DATABASE_URL -c 'select 1'`, nil},
		{`psql "$DATABASE_URL"x -c 'select 1'`, nil},
		{`psql "${DATABASE_URL:-x}" -c 'select 1'`, nil},
		{`psql "$1" -c 'select 1'`, nil},
		{`psql "$@" -c 'select 1'`, nil},
		{`U=$(cat f); psql "$U" -c 'select 1'`, nil},
		{`read -r U; psql "$U" -c 'select 1'`, nil},
		{`psql "$DATABASE_URL" <<EOF` + "\n\\! rm -rf x\nEOF", nil},
		{`sqlite3 a.db "$Q"`, nil},
		{`sqlite3 -cmd "$Q" "$DB" .tables`, nil},
		{`mongosh "$MONGODB_URI" --eval "$JS"`, nil},
		{`echo "$DATABASE_URL" | xargs psql -c 'select 1'`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// TestShellKeysOfDatabaseClientsConnectedByAVariableDoNotCoverAnother:
// approving a query on one connection does not approve another query,
// nor the same one on a connection read from another variable.
func TestShellKeysOfDatabaseClientsConnectedByAVariableDoNotCoverAnother(t *testing.T) {
	for _, line := range []string{
		`psql "$DATABASE_URL" -c '\! rm -rf x'`, `psql "$OTHER_URL" -c 'select 1'`, `psql '$DATABASE_URL' -c 'select 1'`,
		`mongosh "$MONGODB_URI" --eval 'db.t.drop()'`, `sqlite3 "$DB" '.shell rm -rf x'`, `sqlite3 "$DB2" 'select 1'`,
	} {
		t.Run(line, func(t *testing.T) {
			got, err := keysOf(line)
			if err != nil {
				t.Fatal(err)
			}
			checkNotCovered(t, innocentEnvQueries, got, err)
		})
	}
}
