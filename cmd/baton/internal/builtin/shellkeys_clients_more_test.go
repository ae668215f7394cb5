package builtin

import "testing"

// innocentMoreQueries are duckdb and mongosh lines a user may well answer
// "always" for; the lines of TestShellKeysOfDuckdbAndMongoshNameTheirInput
// must not be covered by their keys, nor by those of innocentQueries.
var innocentMoreQueries = []string{
	"duckdb a.db 'select 1'", "duckdb -c 'select 42'", "duckdb a.db -c 'select count(*) from t'",
	"mongosh --quiet --eval 'db.t.countDocuments()'", "mongosh mongodb://localhost/test --eval 'db.t.findOne()'",
}

// TestShellKeysOfDuckdbAndMongoshNameTheirInput: duckdb runs a shell
// line given as .shell or .system, as sqlite3 does, and mongosh's
// JavaScript may require child_process, so a call given what it runs on
// the line (duckdb's SQL operand, -c, -s or -f, mongosh's --eval or
// --file) is keyed by the whole call, and one that reads what it runs
// from stdin, which a heredoc, pipe or redirection may fill, has no keys
// (nil), as for psql, sqlite3 and mysql.
func TestShellKeysOfDuckdbAndMongoshNameTheirInput(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"duckdb a.db '.shell rm -rf x'", []string{"duckdb a.db '.shell rm -rf x'"}},
		{"duckdb -c '.system rm -rf x'", []string{"duckdb -c '.system rm -rf x'"}},
		{"duckdb a.db -s '.shell rm -rf x'", []string{"duckdb a.db -s '.shell rm -rf x'"}},
		{"duckdb -f evil.sql a.db", []string{"duckdb -f evil.sql a.db"}},
		{"duckdb -csv -cmd '.shell rm -rf x' a.db 'select 1'", []string{"duckdb -csv -cmd '.shell rm -rf x' a.db 'select 1'"}},
		{"duckdb a.db <<EOF\n.shell rm -rf x\nEOF", nil},
		{"echo '.shell rm -rf x' | duckdb", nil},
		{"duckdb -f - < evil.sql", nil},
		{"duckdb -f /dev/stdin < evil.sql", nil},
		{"duckdb -cmd .tables a.db < evil.sql", nil},
		{"duckdb -ui a.db", nil},
		{"ls | xargs duckdb a.db", nil},
		{"mongosh --eval 'require(\"child_process\").execSync(\"rm -rf x\")'", []string{`mongosh --eval 'require("child_process").execSync("rm -rf x")'`}},
		{"mongosh mongodb://localhost/test --quiet --eval 'db.t.drop()'", []string{"mongosh mongodb://localhost/test --quiet --eval 'db.t.drop()'"}},
		{"mongosh --eval=x", []string{"mongosh '--eval=x'"}},
		{"mongosh -f evil.js", []string{"mongosh -f evil.js"}},
		{"mongosh --file evil.js test", []string{"mongosh --file evil.js test"}},
		{"mongosh --version", []string{"mongosh --version"}},
		{"mongosh mongodb://localhost/test <<EOF\nrequire('child_process').execSync('rm -rf x')\nEOF", nil},
		{"echo x | mongosh", nil},
		{"mongosh evil.js", nil},
		{"mongosh --eval x --shell < evil.js", nil},
		{"mongosh --bogus --eval x", nil},
		{"mongosh -f /dev/stdin < evil.js", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, append(innocentQueries, innocentMoreQueries...), got, err)
		})
	}
}

// TestShellKeysOfDuckdbAndMongoshQueriesAreTheirOwn: a query given on
// the line keeps one key, the call, so the same query approved again is
// allowed.
func TestShellKeysOfDuckdbAndMongoshQueriesAreTheirOwn(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"duckdb a.db 'select 1'", []string{"duckdb a.db 'select 1'"}},
		{"duckdb -c 'select 42'", []string{"duckdb -c 'select 42'"}},
		{"duckdb -json a.db -c 'select count(*) from t'", []string{"duckdb -json a.db -c 'select count(*) from t'"}},
		{"duckdb --version", []string{"duckdb --version"}},
		{"mongosh --quiet --eval 'db.t.countDocuments()'", []string{"mongosh --quiet --eval 'db.t.countDocuments()'"}},
		{"mongosh mongodb://localhost/test --eval 'db.t.findOne()'", []string{"mongosh mongodb://localhost/test --eval 'db.t.findOne()'"}},
		{"mongosh --nodb --norc --eval 'print(1)'", []string{"mongosh --nodb --norc --eval 'print(1)'"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}
