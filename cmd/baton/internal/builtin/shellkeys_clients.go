package builtin

import (
	"errors"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// errClientStdin: a database client reads its commands from stdin, which
// a heredoc, pipe or redirection may fill with one that runs a shell line.
var errClientStdin = errors.New("a database client reads commands from stdin")

// clientSpec is how a database client reads its options: one-letter
// ones without a value (flags), with one attached or in the next word
// (values), or attached only (optional); long ones by name, true when
// they take the next word without "=". input are the options that give
// it what to run on the line, asks those that make it run nothing (a
// version, a list of databases), then those that make it read stdin
// even so (mongosh --shell); conn those that say where it connects,
// which may be a quoted variable (clientWords). lone: each one-letter option is a word of
// its own, as yargs reads them (mongosh).
type clientSpec struct {
	flags, values, optional string
	long                    map[string]bool
	input, asks, stdin      []string
	conn                    []string
	lone                    bool
}

// dbClients run the commands they are given as a shell would: psql's \!
// and \o |cmd, mysql's system and \!, a server's COPY ... TO PROGRAM,
// mongosh's require('child_process'). Such a call is keyed by the whole
// call; one left to read stdin has no keys. sqlite3 and duckdb, whose
// options are read otherwise, are dotClients'.
var dbClients = map[string]clientSpec{
	"psql": {
		flags: "aAbeEHlnqsStVwWxXz01?", values: "cdfFhLoPpRTUv",
		long: map[string]bool{
			"command": true, "dbname": true, "file": true, "field-separator": true, "host": true,
			"log-file": true, "output": true, "port": true, "pset": true, "record-separator": true,
			"table-attr": true, "username": true, "set": true, "variable": true,
			"echo-all": false, "no-align": false, "echo-errors": false, "echo-queries": false,
			"echo-hidden": false, "html": false, "list": false, "no-readline": false,
			"single-transaction": false, "quiet": false, "single-step": false, "single-line": false,
			"tuples-only": false, "version": false, "no-password": false, "password": false,
			"expanded": false, "no-psqlrc": false, "field-separator-zero": false,
			"record-separator-zero": false, "csv": false, "help": false,
		},
		input: []string{"c", "f", "command", "file"}, asks: []string{"l", "V", "?", "list", "version", "help"},
		conn: []string{"d", "h", "p", "U", "dbname", "host", "port", "username"},
	},
	"mysql": mysqlSpec, "mariadb": mysqlSpec,
	"mongosh": {
		values: "fup", lone: true,
		long: map[string]bool{
			"eval": true, "file": true, "host": true, "port": true, "username": true, "password": true,
			"authenticationDatabase": true, "authenticationMechanism": true, "apiVersion": true,
			"quiet": false, "nodb": false, "norc": false, "verbose": false, "tls": false,
			"version": false, "help": false, "shell": false,
		},
		input: []string{"eval", "file", "f"}, asks: []string{"version", "help"}, stdin: []string{"shell"},
		conn: []string{"host", "port", "username", "u"},
	},
}

var mysqlSpec = clientSpec{
	flags: "ABCcEfGHiInNoqrstTUvVwWX?", values: "DehPSu", optional: "p#",
	long: map[string]bool{
		"user": true, "host": true, "port": true, "database": true, "socket": true, "execute": true,
		"default-character-set": true, "protocol": true, "init-command": true, "login-path": true,
		"defaults-file": true, "defaults-extra-file": true,
		"batch": false, "skip-column-names": false, "column-names": false, "silent": false,
		"table": false, "vertical": false, "raw": false, "html": false, "xml": false, "force": false,
		"verbose": false, "version": false, "help": false, "no-defaults": false, "password": false,
		"unbuffered": false, "quick": false, "compress": false, "skip-ssl": false,
	},
	input: []string{"e", "execute"}, asks: []string{"V", "?", "version", "help"},
	conn: []string{"h", "P", "u", "D", "S", "host", "port", "user", "database", "socket"},
}

// clientInput accepts a database client's call that is given what it
// runs on the line, or only asks, and returns the quoted variables it
// connects by (clientWords); a call that reads stdin, or names it (psql
// -f /dev/stdin, \i -; namesStdin), or whose options are not all known
// (one may take the word after it), or fed words that may be options,
// or a variable where it does not say where to connect, is refused.
func clientInput(base string, args []*syntax.Word, r reach) (map[int]string, error) {
	if r.open || r.fed(args) {
		return nil, errDynamic
	}
	words, vars, ok := clientWords(args)
	if !ok {
		return nil, errDynamic
	}
	if slices.ContainsFunc(words, namesStdin) {
		return nil, errClientStdin
	}
	if spec, ok := dotClients[base]; ok {
		return vars, spec.input(words, vars)
	}
	spec := dbClients[base]
	seen, err := spec.read(words)
	if err != nil {
		return nil, err
	}
	for _, o := range seen {
		if (slices.Contains(spec.input, o.name) && o.value == "-") || slices.Contains(spec.stdin, o.name) {
			return nil, errClientStdin // psql -f - reads stdin, mongosh --shell after its input
		}
		if _, isVar := vars[o.at]; isVar && o.at > 0 && !slices.Contains(spec.conn, o.name) {
			return nil, errDynamic // psql -c "$Q": what it runs is computed
		}
	}
	if slices.ContainsFunc(seen, func(o clientOption) bool {
		return slices.Contains(spec.input, o.name) || slices.Contains(spec.asks, o.name)
	}) {
		return vars, nil
	}
	return nil, errClientStdin
}

// includeStdin is psql's \i (\ir, \include, \include_relative) of
// "-", which reads stdin.
var includeStdin = regexp.MustCompile(`\\(i|ir|include|include_relative)\s+-(\s|\\|$)`)

// namesStdin reports whether a client's word may name its stdin, which
// a heredoc, pipe or redirection fills, by a path (psql -f /dev/stdin,
// sqlite3 -init /dev/fd/0, .read /proc/self/fd/0, mysql's source
// /dev/stdin) or as psql's \i -: its key would not say what it runs. A
// path of /dev but /dev/null, or of /proc, may be stdin.
func namesStdin(s string) bool {
	s = strings.ReplaceAll(s, "/dev/null", "")
	return strings.Contains(s, "/dev/") || strings.Contains(s, "/proc/") || includeStdin.MatchString(s)
}

// clientOption is one option given: its letter or long name and value,
// and where that value is when it is the next word (else 0).
type clientOption struct {
	name, value string
	at          int
}

// read reads a client's options as getopt_long does, wherever they are
// among its operands, up to "--".
func (spec clientSpec) read(words []string) ([]clientOption, error) {
	var seen []clientOption
	for i := 0; i < len(words); i++ {
		s := words[i]
		switch {
		case s == "--":
			return seen, nil
		case strings.HasPrefix(s, "--"):
			name, value, hasValue := strings.Cut(s[2:], "=")
			takes, known := spec.long[name]
			if !known {
				return nil, errRunnerOption
			}
			at := 0
			if takes && !hasValue {
				if i++; i == len(words) {
					return nil, errRunnerOption
				}
				value, at = words[i], i
			}
			seen = append(seen, clientOption{name, value, at})
		case len(s) > 1 && s[0] == '-':
			opt, next, err := spec.short(s, words[i+1:])
			if err != nil {
				return nil, err
			}
			if next > 0 {
				opt[len(opt)-1].at = i + 1
			}
			seen = append(seen, opt...)
			i += next
		}
	}
	return seen, nil
}

// short reads one word of one-letter options; next is 1 when the last
// takes the next word as its value.
func (spec clientSpec) short(s string, rest []string) (seen []clientOption, next int, err error) {
	if spec.lone && len(s) > 2 {
		return nil, 0, errRunnerOption
	}
	for j := 1; j < len(s); j++ {
		c := s[j : j+1]
		switch {
		case strings.Contains(spec.flags, c):
			seen = append(seen, clientOption{name: c})
		case strings.Contains(spec.optional, c):
			return append(seen, clientOption{name: c, value: s[j+1:]}), 0, nil
		case strings.Contains(spec.values, c) && j+1 < len(s):
			return append(seen, clientOption{name: c, value: s[j+1:]}), 0, nil
		case strings.Contains(spec.values, c) && len(rest) > 0:
			return append(seen, clientOption{name: c, value: rest[0]}), 1, nil
		default:
			return nil, 0, errRunnerOption
		}
	}
	return seen, 0, nil
}

// dotClient is how sqlite3 or duckdb reads its options, one dash or two:
// flags, values by the number of words they take, input those whose
// value is what it runs (duckdb -c, -s, -f), asks those that make it
// read no stdin (a version, duckdb -no-stdin). Options not listed (-A,
// -interactive, duckdb -ui) are not known, so such a call has no keys.
type dotClient struct {
	flags        []string
	values       map[string]int
	inputs, asks []string
}

// dotClients run dot commands (.shell, .system) as a shell line.
var dotClients = map[string]dotClient{
	"sqlite3": {
		flags: []string{
			"ascii", "bail", "batch", "box", "column", "csv", "echo", "header", "noheader", "html",
			"json", "line", "list", "markdown", "quote", "readonly", "safe", "table", "tabs",
			"nofollow", "memtrace", "stats", "append", "deserialize", "zip", "version", "help",
		},
		values: map[string]int{
			"cmd": 1, "init": 1, "separator": 1, "newline": 1, "nullvalue": 1, "mmap": 1, "vfs": 1,
			"maxsize": 1, "heap": 1, "escape": 1, "pagecache": 2, "lookaside": 2,
		},
		asks: []string{"version", "help"},
	},
	"duckdb": {
		flags: []string{
			"append", "ascii", "bail", "batch", "box", "column", "csv", "echo", "header", "noheader",
			"html", "json", "jsonlines", "line", "list", "markdown", "nofollow", "readonly", "table",
			"unsigned", "dark-mode", "light-mode", "no-stdin", "version", "help",
		},
		values: map[string]int{"cmd": 1, "c": 1, "s": 1, "f": 1, "init": 1, "separator": 1, "newline": 1, "nullvalue": 1},
		inputs: []string{"c", "s", "f"}, asks: []string{"version", "help", "no-stdin"},
	},
}

// input reports whether sqlite3 or duckdb is given what it runs on the
// line: operands after the database's name, run in turn instead of
// stdin, or an option whose value it runs and then exits.
func (spec dotClient) input(words []string, vars map[int]string) error {
	var operands int
	given := false
	for i := 0; i < len(words); i++ {
		s := words[i]
		if _, isVar := vars[i]; isVar && operands > 0 {
			return errDynamic // what it runs is computed
		}
		if len(s) < 2 || s[0] != '-' {
			operands++
			continue
		}
		name := strings.TrimPrefix(s[1:], "-")
		switch n, takes := spec.values[name]; {
		case takes && i+n < len(words):
			for j := i + 1; j <= i+n; j++ {
				if _, isVar := vars[j]; isVar {
					return errDynamic
				}
			}
			if slices.Contains(spec.inputs, name) && words[i+1] == "-" {
				return errClientStdin // duckdb -f - reads stdin
			}
			given = given || slices.Contains(spec.inputs, name)
			i += n
		case slices.Contains(spec.flags, name):
			given = given || slices.Contains(spec.asks, name)
		default:
			return errRunnerOption
		}
	}
	if operands > 1 || given {
		return nil
	}
	return errClientStdin
}
