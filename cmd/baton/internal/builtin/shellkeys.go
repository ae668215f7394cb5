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

// wrappers run the command named by their first plain argument; their
// keys include that command's.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "xargs": true, "nice": true, "nohup": true,
	"time": true, "timeout": true, "command": true, "exec": true, "builtin": true, "stdbuf": true,
}

// valueFlags are the wrappers' options that take the next word as their
// value, so that word is not the wrapped command.
var valueFlags = map[string][]string{
	"sudo":    {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group"},
	"doas":    {"-u", "-C"},
	"xargs":   {"-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a"},
	"timeout": {"-s", "-k", "--signal", "--kill-after"},
	"nice":    {"-n"},
	"env":     {"-u", "-C", "-S"},
}

// execActions are find's actions that run the command after them.
var execActions = map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true}

// inlineShells run their -c argument (or, for eval, their arguments) as a
// shell line; its commands are parsed too.
var inlineShells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "eval": true}

// shellKeys are the approval keys of a shell call: the sorted names of
// every command its line runs, in pipelines, lists, subshells, command
// substitutions, functions, behind wrappers such as sudo or xargs, in
// find -exec and in sh -c strings; and, for each file a redirection
// writes, ">" and its path, so that approving a command does not also
// approve writing any file with it (echo x >> ~/.ssh/authorized_keys). A
// line whose command names or written paths are computed when it runs
// ($CMD, sh -c "$X", > "$F") has no keys, so it is approved only as
// itself.
func shellKeys(raw json.RawMessage) ([]string, error) {
	var a shellArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	keys, err := commandNames(a.Command, 0)
	if err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}

// commandNames parses a line and names the commands it runs; depth
// bounds nested sh -c strings.
func commandNames(line string, depth int) ([]string, error) {
	if depth > 4 {
		return nil, errors.New("sh -c nested too deep")
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
			found, err = callNames(n.Args, depth)
			names = append(names, found...)
		case *syntax.DeclClause:
			names = append(names, n.Variant.Value)
		case *syntax.LetClause:
			names = append(names, "let")
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
func callNames(args []*syntax.Word, depth int) ([]string, error) {
	if len(args) == 0 {
		return nil, nil // assignments only
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
		more, err := commandNames(inner, depth+1)
		return append(names, more...), err
	case base == "find":
		for i, w := range args[1:] {
			if s, _ := literal(w); execActions[s] {
				more, err := callNames(args[2+i:], depth)
				names = append(names, more...)
				if err != nil {
					return nil, err
				}
			}
		}
	case wrappers[base]:
		skip, duration := false, base == "timeout"
		for i, w := range args[1:] {
			s, ok := literal(w)
			switch {
			case !ok:
				return nil, errDynamic
			case skip:
				skip = false
			case slices.Contains(valueFlags[base], s):
				skip = true
			case strings.HasPrefix(s, "-"), strings.Contains(s, "="):
			case duration:
				duration = false
			default:
				more, err := callNames(args[1+i:], depth)
				return append(names, more...), err
			}
		}
	}
	return names, nil
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

// inlineLine returns the line an inline shell runs: the argument after
// -c, or eval's arguments joined; "" when it runs a script file.
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
	for i, w := range words {
		if strings.HasPrefix(w, "-") && strings.Contains(w, "c") && !strings.HasPrefix(w, "--") && i+1 < len(words) {
			return words[i+1], nil
		}
	}
	return "", nil
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
