package builtin

import "testing"

// innocentQueries are database client lines a user may well answer
// "always" for; the lines of TestShellKeysOfDatabaseClientsNameTheirInput
// must not be covered by their keys.
var innocentQueries = []string{
	"psql -c 'select 1'", "psql -d test -c 'select count(*) from t'", "psql -f schema.sql",
	"sqlite3 a.db 'select 1'", "sqlite3 a.db .tables", "mysql -e 'select 1'", "mariadb -e 'select 1'",
}

// TestShellKeysOfDatabaseClientsNameTheirInput: a database client runs
// what it is given as a shell would (psql's \! and \o |cmd, sqlite3's
// .shell and .system, mysql's system and \!, COPY ... TO PROGRAM), so a
// call given its input on the line is keyed by the whole call, and one
// that reads its input from stdin, which a heredoc, pipe or redirection
// may fill, has no keys (nil).
func TestShellKeysOfDatabaseClientsNameTheirInput(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"psql -c '\\! rm -rf x'", []string{`psql -c '\! rm -rf x'`}},
		{"psql -d test -c '\\! rm -rf x'", []string{`psql -d test -c '\! rm -rf x'`}},
		{"psql test --command='\\o |rm -rf x'", []string{`psql test '--command=\o |rm -rf x'`}},
		{"psql -c \"copy t to program 'rm -rf x'\"", []string{`psql -c "copy t to program 'rm -rf x'"`}},
		{"psql -f evil.sql", []string{"psql -f evil.sql"}},
		{"psql -X -qAtc '\\! rm -rf x'", []string{`psql -X -qAtc '\! rm -rf x'`}},
		{"psql test <<EOF\n\\! rm -rf x\nEOF", nil},
		{"echo '\\! rm -rf x' | psql", nil},
		{"psql -f - < evil.sql", nil},
		{"psql -v -c < evil.sql", nil},
		{"psql -Z -c x", nil},
		{"sqlite3 a.db '.shell rm -rf x'", []string{"sqlite3 a.db '.shell rm -rf x'"}},
		{"sqlite3 a.db '.system rm -rf x'", []string{"sqlite3 a.db '.system rm -rf x'"}},
		{"sqlite3 -cmd '.shell rm -rf x' a.db .tables", []string{"sqlite3 -cmd '.shell rm -rf x' a.db .tables"}},
		{"sqlite3 a.db <<EOF\n.shell rm -rf x\nEOF", nil},
		{"echo '.system rm -rf x' | sqlite3 a.db", nil},
		{"sqlite3 -cmd .tables a.db < evil.sql", nil},
		{"mysql -e 'system rm -rf x'", []string{"mysql -e 'system rm -rf x'"}},
		{"mysql -u root -e '\\! rm -rf x' test", []string{`mysql -u root -e '\! rm -rf x' test`}},
		{"mysql --execute='system rm -rf x'", []string{"mysql '--execute=system rm -rf x'"}},
		{"mysql test < evil.sql", nil},
		{"mariadb -D test <<EOF\nsystem rm -rf x\nEOF", nil},
		{"mysql -D -e < evil.sql", nil},
		{"echo 'system rm -rf x' | xargs mysql -e", nil},
		{"find . -name '*.sql' -exec psql -f {} \\;", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocentQueries, got, err)
		})
	}
}

// TestShellKeysOfDatabaseQueriesAreTheirOwn: a query given on the line
// keeps one key, the call, so the same query approved again is allowed.
func TestShellKeysOfDatabaseQueriesAreTheirOwn(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"psql -c 'select 1'", []string{"psql -c 'select 1'"}},
		{"psql -h 127.0.0.1 -U postgres test -c 'select 1'", []string{"psql -h 127.0.0.1 -U postgres test -c 'select 1'"}},
		{"psql -l", []string{"psql -l"}},
		{"psql --version", []string{"psql --version"}},
		{"sqlite3 a.db .tables", []string{"sqlite3 a.db .tables"}},
		{"sqlite3 -header -csv a.db 'select * from t'", []string{"sqlite3 -header -csv a.db 'select * from t'"}},
		{"mysql -uroot -N -e 'show tables' test", []string{"mysql -uroot -N -e 'show tables' test"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}
