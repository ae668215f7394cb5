package builtin

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// errDynamic: a command name is only known when the line runs.
var errDynamic = errors.New("a command name is computed when the line runs")

// errTooAmbiguous: the line's wrapper options can be read too many ways
// to name every command it may run.
var errTooAmbiguous = errors.New("too many ways to read the line's options")

// maxKeyWork bounds the words read while keying one line.
const maxKeyWork = 10000

// keyWorkBytes are the bytes of a line parsed that count as one word of
// maxKeyWork: a sh -c string is parsed again for every reading of the
// options before it.
const keyWorkBytes = 1024

// errArithmCmd: which commands ((...)) runs depends on the sh.
var errArithmCmd = errors.New("((...)) is a command in a subshell for some sh, arithmetic for others")

// wrappers run the command named by their first plain argument; their
// keys include that command's.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "xargs": true, "nice": true, "nohup": true,
	"time": true, "timeout": true, "command": true, "exec": true, "builtin": true, "stdbuf": true,
	"setsid": true, "ionice": true, "busybox": true,
}

// shortValues are the wrappers' one-letter options that take a value:
// the rest of their word, or the next word when they end it (-u root,
// -iu root, -uroot), so that word is not the wrapped command.
var shortValues = map[string]string{
	"sudo":    "aCcDghpRrTtUu",
	"doas":    "Cu",
	"xargs":   "aDdEILnPs",
	"timeout": "ks",
	"nice":    "n",
	"env":     "Cu",
	"stdbuf":  "eio",
	"exec":    "a",
	"time":    "fo",
	"ionice":  "cnpPu",
}

// longValues are the wrappers' long options that take the next word as
// their value when no "=" gives it. A long option not named here may be
// an abbreviation of one (getopt accepts --un for --unset), so a word
// after it is read both ways and the keys name both commands.
var longValues = map[string][]string{
	"sudo":    {"user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "other-user", "command-timeout", "chroot", "login-class", "auth-type"},
	"xargs":   {"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
	"timeout": {"signal", "kill-after"},
	"nice":    {"adjustment"},
	"env":     {"unset", "chdir"},
	"stdbuf":  {"input", "output", "error"},
	"time":    {"format", "output"},
	"ionice":  {"class", "classdata", "pid", "pgid", "uid"},
}

// execActions are find's actions that run the command after them.
var execActions = map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true}

// inlineShells run their -c argument (or, for eval, their arguments) as a
// shell line; its commands are parsed too.
var inlineShells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "eval": true}

// shellKeys are the approval keys of a shell call: the sorted names of
// every command its line runs, in pipelines, lists, subshells, command
// substitutions, functions, behind wrappers such as sudo or xargs, in
// find -exec and in sh -c strings; for each file a redirection writes,
// ">" and its path, so that approving a command does not also approve
// writing any file with it (echo x >> ~/.ssh/authorized_keys); and for
// each variable the line sets, NAME=VALUE (NAME=* when the value is
// computed), since a variable decides what a command runs (PATH=/tmp ls,
// LD_PRELOAD=x.so ls) and approving ls must not approve those. A
// line whose command names or written paths are computed when it runs
// ($CMD, sh -c "$X", > "$F") has no keys, so it is approved only as
// itself.
func shellKeys(raw json.RawMessage) ([]string, error) {
	var a shellArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	keys, err := commandNames(a.Command, 0, new(int))
	if err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}

// commandNames parses a line and names the commands it runs; depth
// bounds nested sh -c strings.
func commandNames(line string, depth int, work *int) ([]string, error) {
	if depth > 4 {
		return nil, errors.New("sh -c nested too deep")
	}
	if *work += len(line) / keyWorkBytes; *work > maxKeyWork {
		return nil, errTooAmbiguous
	}
	file, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, err
	}
	var names []string
	syntax.Walk(file, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			var found []string
			found, err = callNames(n.Args, depth, work)
			names = append(names, found...)
		case *syntax.DeclClause:
			names = append(names, n.Variant.Value)
		case *syntax.LetClause:
			names = append(names, "let")
		case *syntax.Assign:
			if key := assignKey(n); key != "" {
				names = append(names, key)
			}
		case *syntax.WordIter:
			// for NAME in ... sets NAME to each item in turn.
			names = append(names, n.Name.Value+"=*")
		case *syntax.ArithmCmd:
			// bash evaluates ((...)), but dash, sh on Debian, runs it
			// as a command in two nested subshells: ((sh<evil)).
			err = errArithmCmd
		case *syntax.Redirect:
			var path string
			path, err = writtenPath(n)
			if path != "" {
				names = append(names, ">"+path)
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, errors.New("the line runs no command")
	}
	return names, nil
}

// callNames names the command of one simple command, and what it wraps.
func callNames(args []*syntax.Word, depth int, work *int) ([]string, error) {
	if len(args) == 0 {
		return nil, nil // assignments only
	}
	if *work++; *work > maxKeyWork {
		return nil, errTooAmbiguous
	}
	name, ok := literal(args[0])
	if !ok {
		return nil, errDynamic
	}
	names := []string{name}
	base := name[strings.LastIndex(name, "/")+1:]
	switch {
	case inlineShells[base]:
		inner, err := inlineLine(base, args[1:])
		if err != nil || inner == "" {
			return names, err
		}
		more, err := commandNames(inner, depth+1, work)
		return append(names, more...), err
	case base == "find":
		for i, w := range args[1:] {
			if s, _ := literal(w); execActions[s] {
				more, err := callNames(args[2+i:], depth, work)
				names = append(names, more...)
				if err != nil {
					return nil, err
				}
			}
		}
	case wrappers[base]:
		more, err := wrappedNames(base, args[1:], depth, work)
		return append(names, more...), err
	case base == "trap":
		// trap ACTION SIGNAL...: the action runs when a signal comes.
		rest := args[1:]
		if len(rest) > 0 {
			if s, _ := joinParts(rest[0]); s == "--" {
				rest = rest[1:]
			}
		}
		if len(rest) > 1 {
			action, ok := joinParts(rest[0])
			if !ok {
				return nil, errDynamic
			}
			if action != "-" && strings.Trim(action, "0123456789") != "" {
				more, err := commandNames(action, depth+1, work)
				return append(names, more...), err
			}
		}
	case base == "alias":
		// alias NAME=LINE: sh runs LINE wherever a later command is NAME.
		for _, w := range args[1:] {
			s, ok := joinParts(w)
			if !ok {
				return nil, errDynamic
			}
			if _, line, ok := strings.Cut(s, "="); ok && strings.TrimSpace(line) != "" {
				more, err := commandNames(line, depth+1, work)
				if err != nil {
					return nil, err
				}
				names = append(names, more...)
			}
		}
	}
	return names, nil
}

// wrappedNames names the command a wrapper runs, given the wrapper's
// arguments: the first word that is neither an option, an option's
// value, an assignment nor timeout's duration. Where an option may or
// may not take the next word, both readings are named.
func wrappedNames(base string, args []*syntax.Word, depth int, work *int) ([]string, error) {
	var from func(i int, duration bool) ([]string, error)
	from = func(i int, duration bool) ([]string, error) {
		for ; i < len(args); i++ {
			// Each option read both ways doubles the readings: a line
			// with many is approved as itself rather than keyed for ever.
			if *work++; *work > maxKeyWork {
				return nil, errTooAmbiguous
			}
			s, ok := literal(args[i])
			switch {
			case !ok:
				return nil, errDynamic
			case s == "--":
				return plain(base, args[i+1:], duration, depth, work)
			case strings.HasPrefix(s, "-"):
				takes, err := optionValue(base, s)
				switch {
				case err != nil:
					return nil, err
				case takes == valueNext:
					i++
				case takes == valueMaybe && i+1 < len(args):
					asCommand, err := from(i+1, duration)
					if err != nil {
						return nil, err
					}
					asValue, err := from(i+2, duration)
					return append(asCommand, asValue...), err
				}
			case strings.Contains(s, "="):
			case duration:
				duration = false
			default:
				return callNames(args[i:], depth, work)
			}
		}
		return nil, nil
	}
	return from(0, base == "timeout")
}

// plain names the command after a wrapper's "--": every word is an
// operand, timeout's duration first.
func plain(base string, args []*syntax.Word, duration bool, depth int, work *int) ([]string, error) {
	for i, w := range args {
		s, ok := literal(w)
		switch {
		case !ok:
			return nil, errDynamic
		case strings.Contains(s, "="):
		case duration:
			duration = false
		default:
			return callNames(args[i:], depth, work)
		}
	}
	return nil, nil
}

type optionTakes int

const (
	valueNone optionTakes = iota
	valueNext
	valueMaybe
)

// optionValue says whether a wrapper's option word takes the next word
// as its value. env -S (--split-string) runs its value as the command
// line, which env splits by rules of its own, so it has no keys.
func optionValue(base, s string) (optionTakes, error) {
	if long, ok := strings.CutPrefix(s, "--"); ok {
		name, _, hasValue := strings.Cut(long, "=")
		switch {
		case base == "env" && name != "" && strings.HasPrefix("split-string", name):
			return valueNone, errDynamic
		case hasValue:
			return valueNone, nil
		case slices.Contains(longValues[base], name):
			return valueNext, nil
		}
		return valueMaybe, nil
	}
	for j, c := range s[1:] {
		if base == "env" && c == 'S' {
			return valueNone, errDynamic
		}
		if strings.ContainsRune(shortValues[base], c) {
			if j == len(s)-2 {
				return valueNext, nil
			}
			return valueNone, nil
		}
	}
	return valueNone, nil
}

// assignKey is the key of an assignment, NAME=VALUE or NAME+=VALUE, with
// * for a value computed when the line runs or not plain text; "" for a
// declaration's bare name or option (export NAME, local -r), which sets
// nothing. literal refuses *, so no fixed value reads as a computed one.
func assignKey(a *syntax.Assign) string {
	if a.Naked || a.Name == nil {
		return ""
	}
	op := "="
	if a.Append {
		op = "+="
	}
	if a.Value == nil && a.Array == nil && a.Index == nil {
		return a.Name.Value + op
	}
	value, ok := "", false
	if a.Value != nil && a.Array == nil && a.Index == nil {
		value, ok = literal(a.Value)
	}
	if !ok {
		value = "*"
	}
	return a.Name.Value + op + value
}

// writtenPath returns the file a redirection writes, or "" when it
// writes none: it reads, duplicates a descriptor (2>&1, >&-), or writes
// to /dev/null.
func writtenPath(r *syntax.Redirect) (string, error) {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll, syntax.DplOut:
	default:
		return "", nil
	}
	path, ok := literal(r.Word)
	switch {
	case !ok:
		return "", errDynamic
	case r.Op == syntax.DplOut && (path == "-" || strings.Trim(path, "0123456789") == ""):
		return "", nil
	case path == "/dev/null":
		return "", nil
	}
	return path, nil
}

// inlineLine returns the line an inline shell runs: with the c flag, the
// first operand after the options, or eval's arguments joined; "" when
// it runs a script file.
func inlineLine(base string, args []*syntax.Word) (string, error) {
	var words []string
	for _, w := range args {
		s, ok := joinParts(w)
		if !ok {
			return "", errDynamic
		}
		words = append(words, s)
	}
	if base == "eval" {
		return strings.Join(words, " "), nil
	}
	i, cflag := shellOptions(words)
	if !cflag || i >= len(words) {
		return "", nil
	}
	return words[i], nil
}

// shellOptions reads a shell's options as sh and bash do, and returns
// where its operands begin and whether -c was given. The options may
// follow -c (sh -c -e LINE, sh -c -- LINE): the line is the first
// operand, not the word after -c. Each o or O in an option word takes
// the next word as its value, as do bash's --rcfile and --init-file; a
// lone - or -- ends the options.
func shellOptions(words []string) (int, bool) {
	cflag := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--" || w == "-":
			return i + 1, cflag
		case w == "--rcfile" || w == "--init-file":
			i++
		case strings.HasPrefix(w, "--"):
		case len(w) > 1 && (w[0] == '-' || w[0] == '+'):
			if w[0] == '-' && strings.Contains(w, "c") {
				cflag = true
			}
			i += strings.Count(w, "o") + strings.Count(w, "O")
		default:
			return i, cflag
		}
	}
	return len(words), cflag
}

// literal returns a word's value when it is fixed text, quoted or not.
// Backslash escapes and glob characters count as not fixed: what they
// name is decided when the line runs.
func literal(w *syntax.Word) (string, bool) {
	s, ok := joinParts(w)
	if !ok || s == "" || strings.ContainsAny(s, "\\*?[") {
		return "", false
	}
	return s, true
}

func joinParts(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
