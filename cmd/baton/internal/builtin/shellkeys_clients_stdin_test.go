package builtin

import (
	"os/exec"
	"strings"
	"testing"
)

// clientStdinAttacks give a database client stdin by a path on the line
// (/dev/stdin, /dev/fd/0, /proc/self/fd/0, psql's \i -), and fill stdin
// with a command that runs a shell line: the call's words stay those of
// the same call fed a harmless query, so each has no keys.
var clientStdinAttacks = []string{
	"psql -f /dev/stdin <<< '\\! touch pwned'",
	"psql -qf/dev/stdin <<< '\\! touch pwned'",
	"psql --file=/dev/fd/0 <<< '\\! touch pwned'",
	"psql -c '\\i -' <<< '\\! touch pwned'",
	"psql -c '\\include  -' <<< '\\! touch pwned'",
	"mysql -e 'source /dev/stdin' <<< 'system touch pwned'",
	"sqlite3 a.db '.read /dev/stdin' <<< '.shell touch pwned'",
	"sqlite3 -init /dev/stdin a.db .tables <<< '.shell touch pwned'",
	"sqlite3 -init /proc/self/fd/0 a.db .tables <<< '.shell touch pwned'",
	"echo '.shell touch pwned' | sqlite3 -init /dev/fd/0 a.db .tables",
}

// innocentStdinQueries are the same calls fed a harmless query.
var innocentStdinQueries = []string{
	"psql -f /dev/stdin <<< 'select 1'", "psql -qf/dev/stdin <<< 'select 1'",
	"psql --file=/dev/fd/0 <<< 'select 1'", "psql -c '\\i -' <<< 'select 1'",
	"psql -c '\\include  -' <<< 'select 1'", "mysql -e 'source /dev/stdin' <<< 'select 1'",
	"sqlite3 a.db '.read /dev/stdin' <<< 'select 1;'", "sqlite3 -init /dev/stdin a.db .tables <<< 'select 1;'",
	"sqlite3 -init /proc/self/fd/0 a.db .tables <<< 'select 1;'", "echo 'select 1;' | sqlite3 -init /dev/fd/0 a.db .tables",
}

func TestShellKeysOfDatabaseClientsReadingStdinByNameHaveNone(t *testing.T) {
	for _, line := range clientStdinAttacks {
		t.Run(line, func(t *testing.T) {
			got, err := keysOf(line)
			checkKeys(t, nil, got, err)
			checkNotCovered(t, innocentStdinQueries, got, err)
		})
	}
}

// TestClientStdinAttacksRunUnderBash keeps the sqlite3 lines of
// clientStdinAttacks honest: each runs touch (psql's and mysql's need a
// server to connect to).
func TestClientStdinAttacksRunUnderBash(t *testing.T) {
	bash := bashPath(t)
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("needs sqlite3 to run its attack lines")
	}
	for _, line := range clientStdinAttacks {
		if !strings.Contains(line, "sqlite3") {
			continue
		}
		t.Run(line, func(t *testing.T) {
			checkRunsTouch(t, bash, line)
		})
	}
}

// TestShellKeysOfDatabaseClientsWritingToDevNullStayTheSame: /dev/null
// holds no commands, so a call naming it keeps its key.
func TestShellKeysOfDatabaseClientsWritingToDevNullStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"psql -o /dev/null -c 'select 1'", []string{"psql -o /dev/null -c 'select 1'"}},
		{"psql -c 'select 1' -L /dev/null", []string{"psql -c 'select 1' -L /dev/null"}},
		{"psql -c '\\i schema.sql'", []string{`psql -c '\i schema.sql'`}},
		{"psql -c '\\i -x.sql'", []string{`psql -c '\i -x.sql'`}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}
