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
// -iu root, -uroot), so that word is not the wrapped command. BSD's
// xargs -J, -R and -S take one too; GNU's has none of them and fails.
var shortValues = map[string]string{
	"sudo":    "aCcDghpRrTtUu",
	"doas":    "Cu",
	"xargs":   "aDdEIJLnPRSs",
	"timeout": "ks",
	"nice":    "n",
	"env":     "Cu",
	"stdbuf":  "eio",
	"exec":    "a",
	"time":    "fo",
	"ionice":  "cnpPu",
}

// shortOptional are the wrappers' one-letter options whose value, if
// any, is the rest of their word: xargs -i{} -e_ -l1.
var shortOptional = map[string]string{"xargs": "eil"}

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

// longFlags are the wrappers' long options that never take the next
// word: a word no longer than one of them and beginning it, and no value
// option of longValues, is that option for getopt, however abbreviated.
var longFlags = map[string][]string{
	"timeout": {"foreground", "preserve-status", "verbose"},
	"env":     {"ignore-environment", "null", "debug"},
	"xargs":   {"null", "no-run-if-empty", "verbose", "interactive", "open-tty", "exit", "show-limits"},
}

// execActions are find's actions that run the command after them.
var execActions = map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true}

// inlineShells run their -c argument (or, for eval, their arguments) as a
// shell line; its commands are parsed too.
var inlineShells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "eval": true}

// shellKeys are the approval keys of a shell call, sorted, of six
// kinds that no one key can be of two of:
//
//   - the name of every command its line runs, in pipelines, lists,
//     subshells, command substitutions, functions, aliases and traps,
//     behind wrappers such as sudo or xargs, flock, taskset, watch or
//     chronic (shellkeys_runners.go), in find -exec and in sh -c, eval
//     and watch strings, as sh reads it once quotes and backslashes are
//     gone (l\s is ls); a name with a space or an "=", or beginning with
//     ">", is no key; an interpreter given code on the line (perl -e,
//     python -c, node -e, make --eval, an awk program that calls system,
//     pipes or redirects, a sed script with e, w, r or s///e or from -f),
//     or a program given an option that runs a command (rsync -e, git -c
//     or git rebase --exec, tar -I, zip -TT, man -P; shellkeys_options.go),
//     or a database client given its commands on the line (psql -c, whose
//     \! runs a shell line, sqlite3 a.db .tables, duckdb -c, mysql -e,
//     mongosh --eval; shellkeys_clients.go) is keyed by the whole call
//     instead, NAME and its words quoted (shellkeys_inline.go), so
//     approving one program never approves another; an interpreter
//     running a script file by the call up to the script (sh build.sh,
//     python3 -u x.py, python3 -m pytest; shellkeys_scripts.go), so
//     approving one script never approves another;
//   - ">" and the path of each file a redirection or find -fprint
//     writes, or a program told of it on the line (tee FILE, sort -o,
//     uniq IN OUT, dd of=, time -o, curl -o, wget -O, go build -o;
//     shellkeys_writes.go), or that a program copies, moves or links
//     to, creates, removes or edits (cp, mv, install, ln, touch, rm,
//     chmod, truncate, sed -i, mkdir, setfacl; shellkeys_changes.go,
//     shellkeys_siblings.go), or archives or syncs to (tar -cf, rsync's
//     destination; shellkeys_tar.go, shellkeys_rsync.go), so that approving
//     a command does not also approve writing any file with it (echo x
//     >> ~/.ssh/authorized_keys, echo x | tee ~/.bashrc, cp x ~/.bashrc);
//   - NAME=VALUE (NAME+=VALUE) for each variable the line sets, by an
//     assignment, env or sudo, export "NAME=VALUE" or ${NAME:=VALUE},
//     and NAME=* where the value is computed or set another way (read,
//     getopts, printf -v, mapfile, unset, $((NAME=1)), for NAME in,
//     declare -l), since a variable decides what a command runs
//     (PATH=/tmp ls, LD_PRELOAD=x.so ls) and approving ls must not
//     approve those; "@=*" where set sets the positional parameters;
//   - ". FILE" for each file . or source runs, as approving it for one
//     file must not approve it for another;
//   - "cd DIR" (and "pushd DIR") for where the line changes directory,
//     "cd *" where that is computed, "cd ~" for a bare cd.
//   - "$NAME=env" for each variable arithmetic reads ($((N)), ${a[N]},
//     test $N) that the line sets nowhere, as bash evaluates the value
//     the environment gives it, whose subscripts may run commands, and
//     approving one variable must not approve another (shellkeys_arith.go);
//     so too for each a database client connects by, written "$NAME" in
//     its call's key (psql "$DATABASE_URL" -c ...; shellkeys_clients_env.go).
//
// A line whose commands, written paths, set variables or sourced files
// are computed when it runs ($CMD, sh -c "$X", > "$F", read "$V",
// {rm,-rf,x}, /bin/l?, rm *.o, find -exec rm {}), or that a command is
// fed from elsewhere (xargs env, find -exec sh -c {}, sudo -s), or that
// runs a program whose command its keys cannot name (su, ssh, chroot,
// strace, parallel, ed, vim, a runner's option not known), or that
// writes files no word of it names (tar extracting, split), or an
// interpreter reading its program from stdin, which a heredoc, pipe or
// redirection may fill
// (curl x | sh, python3 - <<EOF, sh -s, psql test <<EOF), or that points a name elsewhere
// (declare -n, hash -p), or that dash or bash, either of which may be
// sh, reads other than the parser does ([[ ]], words after &>, a
// carriage return; see shellkeys_dialect.go), has no keys, so it is
// approved only as itself. So has a line where arithmetic ($((x)),
// ${a[x]}, ${s:x}, let, declare -i, test -v, ${!x}) reads a value the
// line does not fix as a number or inert text (read x, for x in, $1,
// $(...)), as bash runs the subscripts in it (shellkeys_arith.go), and
// one that changes directory (cd, pushd, popd, env -C, sudo -D, find
// -execdir) and has a key naming a relative path (./gradlew, >out,
// . venv/bin/activate) or a call keyed as itself (sed -f x.sed f),
// which then names another file.
func shellKeys(raw json.RawMessage) ([]string, error) {
	var a shellArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	st := new(keyState)
	keys, err := commandNames(a.Command, 0, st)
	if err == nil {
		err = st.check(keys)
		keys = append(keys, st.arith.envKeys(keys)...)
		keys = append(keys, st.connEnvKeys(keys)...)
	}
	if err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}

// commandNames parses a line and names the commands it runs; depth
// bounds nested sh -c strings.
func commandNames(line string, depth int, st *keyState) ([]string, error) {
	if depth > 4 {
		return nil, errors.New("sh -c nested too deep")
	}
	if st.work += len(line) / keyWorkBytes; st.work > maxKeyWork {
		return nil, errTooAmbiguous
	}
	if err := blankSafe(line); err != nil {
		return nil, err
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
		if err = dialectKeys(n, line); err != nil {
			return false
		}
		arithSets(n, st)
		if err = arithReads(n, st); err != nil {
			return false
		}
		var found []string
		found, err = nodeKeys(n, depth, st)
		names = append(names, found...)
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

// nodeKeys are the keys of one node of a parsed line.
func nodeKeys(n syntax.Node, depth int, st *keyState) ([]string, error) {
	switch n := n.(type) {
	case *syntax.CallExpr:
		return callNames(n.Args, depth, st, reach{})
	case *syntax.DeclClause:
		return declKeys(n, st)
	case *syntax.LetClause:
		return []string{"let"}, nil
	case *syntax.Assign:
		return nonEmpty(assignKey(n), nil)
	case *syntax.WordIter:
		// for NAME in ... sets NAME to each item in turn.
		return []string{varKey(n.Name.Value)}, nil
	case *syntax.ParamExp:
		return nonEmpty(paramKey(n))
	case *syntax.BinaryArithm, *syntax.UnaryArithm:
		return nonEmpty(arithmKey(n))
	case *syntax.ArithmCmd:
		// bash evaluates ((...)), but dash, sh on Debian, runs it
		// as a command in two nested subshells: ((sh<evil)).
		return nil, errArithmCmd
	case *syntax.Redirect:
		fd, err := nonEmpty(fdVarKey(n))
		if err != nil {
			return nil, err
		}
		path, err := writtenPath(n)
		if path != "" {
			fd = append(fd, ">"+path)
		}
		return fd, err
	}
	return nil, nil
}

func nonEmpty(key string, err error) ([]string, error) {
	if key == "" || err != nil {
		return nil, err
	}
	return []string{key}, nil
}

// reach says what a command gets beyond its words when it runs: xargs
// appends words it reads (open), and xargs -I and find -exec put them in
// place of a string (subst). paths says those are the paths find found,
// which begin with the starting points on its line and so never with
// "-" (no option); xargs's may be any text.
type reach struct {
	open  bool
	subst string
	paths bool
}

// fed reports whether words from outside the line may reach args.
func (r reach) fed(args []*syntax.Word) bool {
	if r.open {
		return true
	}
	for _, w := range args {
		if s, ok := joinParts(w); r.subst != "" && (!ok || strings.Contains(s, r.subst)) {
			return true
		}
	}
	return false
}

// runsLines are the commands that read their arguments as commands or
// code: fed words they were not given on the line, they run anything.
func runsLines(base string) bool {
	return inlineShells[base] || base == "find" || base == "trap" || base == "alias" || base == "." || base == "source"
}

// callNames names the command of one simple command, and what it wraps.
func callNames(args []*syntax.Word, depth int, st *keyState, r reach) ([]string, error) {
	if len(args) == 0 {
		return nil, nil // assignments only
	}
	if st.work++; st.work > maxKeyWork {
		return nil, errTooAmbiguous
	}
	name, ok := commandName(args[0])
	if !ok || !plainName(name) || (r.subst != "" && strings.Contains(name, r.subst)) {
		return nil, errDynamic
	}
	base := name[strings.LastIndex(name, "/")+1:]
	if runsLines(base) && r.fed(args[1:]) {
		return nil, errDynamic
	}
	if opaqueRunners[base] {
		return nil, errOpaqueRunner
	}
	if key, ok, err := codeKey(name, base, args[1:], r, st); ok || err != nil {
		st.runPaths = append(st.runPaths, name)
		st.calls = true
		return []string{key}, err
	}
	if key, ok, err := scriptKey(name, base, args[1:], r, st); ok || err != nil {
		st.runPaths = append(st.runPaths, name)
		return []string{key}, err
	}
	names, err := writtenFiles(base, args[1:], r)
	if err != nil {
		return nil, err
	}
	names = append(names, name)
	var more []string
	switch {
	case inlineShells[base]:
		more, err = inlineNames(base, args[1:], depth, st)
	case base == "." || base == "source":
		more, err = sourcedKey(args[1:])
	case base == "find":
		more, err = execNames(args[1:], depth, st)
	case wrappers[base]:
		more, err = wrappedNames(base, args[1:], depth, st, r)
	case hasRunnerSpec(base):
		more, err = runnerNames(base, args[1:], depth, st, r)
	case base == "trap":
		more, err = trapNames(args[1:], depth, st)
	case base == "alias":
		more, err = aliasNames(args[1:], depth, st)
	case dirChangers[base]:
		st.dirChanged = true
		more = dirKey(base, args[1:])
	case base == "test" || base == "[":
		err = testReads(args[1:], st)
	default:
		more, err = setterKeys(base, args[1:])
		st.arith.taintKeys(more)
	}
	if err != nil {
		return nil, err
	}
	return append(names, more...), nil
}

// inlineNames names the commands of an inline shell's line.
func inlineNames(base string, args []*syntax.Word, depth int, st *keyState) ([]string, error) {
	inner, err := inlineLine(base, args)
	if err != nil || inner == "" {
		return nil, err
	}
	return commandNames(inner, depth+1, st)
}

// sourcedKey is the key of the file . or source runs as part of the
// line: ". FILE", which no command name is, as plainName refuses
// spaces. Approving . for one file must not approve it for another, and
// a file of /dev or /proc (/dev/stdin) holds whatever it is fed.
func sourcedKey(args []*syntax.Word) ([]string, error) {
	if len(args) > 0 {
		if s, _ := joinParts(args[0]); s == "--" {
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return nil, nil
	}
	file, ok := literal(args[0])
	if !ok || strings.HasPrefix(file, "/dev/") || strings.HasPrefix(file, "/proc/") {
		return nil, errDynamic
	}
	return []string{". " + file}, nil
}

// execNames names the commands of find's -exec actions, each up to its
// ";" or "{} +", where find puts each file's name in place of {}, and
// the files its -fprint actions write; -delete gives no keys.
func execNames(args []*syntax.Word, depth int, st *keyState) ([]string, error) {
	var names []string
	// -files0-from reads the starting points from a file.
	paths := !slices.ContainsFunc(args, func(w *syntax.Word) bool { s, _ := joinParts(w); return s == "-files0-from" })
	for i, w := range args {
		s, _ := literal(w)
		if s == "-delete" {
			return nil, errFindDeletes
		}
		if writeActions[s] {
			written, err := findWrites(args[i+1:])
			if err != nil {
				return nil, err
			}
			names = append(names, written...)
		}
		if !execActions[s] {
			continue
		}
		if s == "-execdir" || s == "-okdir" {
			st.dirChanged = true // the command runs in each file's folder
		}
		end := i + 1
		for ; end < len(args); end++ {
			s, _ := joinParts(args[end])
			prev, _ := joinParts(args[end-1])
			if s == ";" || (s == "+" && prev == "{}") {
				break
			}
		}
		more, err := callNames(args[i+1:end], depth, st, reach{subst: "{}", paths: paths})
		if err != nil {
			return nil, err
		}
		names = append(names, more...)
	}
	return names, nil
}

// errFindDeletes: find -delete removes the files the file system holds
// when it runs, which no key can name, as rm fed their names has none.
var errFindDeletes = errors.New("find -delete removes files the line does not name")

// writeActions are find's actions that write the file after them.
var writeActions = map[string]bool{"-fprint": true, "-fprint0": true, "-fprintf": true, "-fls": true}

// findWrites is the key of the file a -fprint action writes, its first
// word: ">" and the path, as a redirection's.
func findWrites(args []*syntax.Word) ([]string, error) {
	if len(args) == 0 {
		return nil, nil
	}
	path, ok := literal(args[0])
	switch {
	case !ok:
		return nil, errDynamic
	case path == "/dev/null":
		return nil, nil
	}
	return []string{">" + path}, nil
}

// trapNames names the commands of trap ACTION SIGNAL...: the action runs
// when a signal comes.
func trapNames(args []*syntax.Word, depth int, st *keyState) ([]string, error) {
	if len(args) > 0 {
		if s, _ := joinParts(args[0]); s == "--" {
			args = args[1:]
		}
	}
	if len(args) < 2 {
		return nil, nil
	}
	action, ok := joinParts(args[0])
	if !ok {
		return nil, errDynamic
	}
	if action == "-" || strings.Trim(action, "0123456789") == "" {
		return nil, nil
	}
	return commandNames(action, depth+1, st)
}

// aliasNames names the commands of alias NAME=LINE: sh runs LINE
// wherever a later command is NAME.
func aliasNames(args []*syntax.Word, depth int, st *keyState) ([]string, error) {
	var names []string
	for _, w := range args {
		s, ok := joinParts(w)
		if !ok {
			return nil, errDynamic
		}
		if _, line, ok := strings.Cut(s, "="); ok && strings.TrimSpace(line) != "" {
			more, err := commandNames(line, depth+1, st)
			if err != nil {
				return nil, err
			}
			names = append(names, more...)
		}
	}
	return names, nil
}

// wrappedNames names the command a wrapper runs, given the wrapper's
// arguments: the first word that is neither an option, an option's
// value, env's or sudo's assignment (a key of its own, as it sets the
// variable for the command) nor timeout's duration. Where an option may
// or may not take the next word, both readings are named. Fed words (r)
// may be or replace the command, so a wrapper left without one, or with
// one they replace, has no keys.
func wrappedNames(base string, args []*syntax.Word, depth int, st *keyState, r reach) ([]string, error) {
	var from func(i int, duration bool, subst string) ([]string, error)
	from = func(i int, duration bool, subst string) ([]string, error) {
		var keys []string
		for ; i < len(args); i++ {
			// Each option read both ways doubles the readings: a line
			// with many is approved as itself rather than keyed for ever.
			if st.work++; st.work > maxKeyWork {
				return nil, errTooAmbiguous
			}
			s, ok := literal(args[i])
			switch {
			case !ok || (r.subst != "" && strings.Contains(s, r.subst)):
				return nil, errDynamic
			case s == "--":
				more, err := plain(base, args[i+1:], duration, depth, st, inner(base, r, subst))
				return append(keys, more...), err
			case strings.HasPrefix(s, "-"):
				if chdirOption(base, s) {
					st.dirChanged = true
				}
				if base == "xargs" {
					if subst, ok = xargsReplace(s, args[i+1:], subst); !ok {
						return nil, errDynamic
					}
				}
				takes, err := optionValue(base, s)
				switch {
				case err != nil:
					return nil, err
				case takes != valueNone && i+1 == len(args) && r.open:
					return nil, errDynamic
				case takes == valueNext:
					i++
				case takes == valueMaybe && i+1 < len(args):
					asCommand, err := from(i+1, duration, subst)
					if err != nil {
						return nil, err
					}
					asValue, err := from(i+2, duration, subst)
					return append(append(keys, asCommand...), asValue...), err
				}
			case strings.Contains(s, "=") && (base == "env" || base == "sudo"):
				if err := st.assigns(s); err != nil {
					return nil, err
				}
				keys = append(keys, s)
			case duration:
				duration = false
			default:
				more, err := callNames(args[i:], depth, st, inner(base, r, subst))
				return append(keys, more...), err
			}
		}
		if r.open {
			return nil, errDynamic
		}
		return keys, nil
	}
	return from(0, base == "timeout", "")
}

// inner is what reaches the command a wrapper runs: xargs appends words
// it reads, or with -I puts them in place of subst.
func inner(base string, r reach, subst string) reach {
	switch {
	case base != "xargs":
		return r
	case subst != "":
		return reach{subst: subst}
	}
	return reach{open: true}
}

// xargsReplace returns the string xargs replaces with what it reads, as
// set by the option word s (-I R, -IR, -i, -iR, --replace[=R]), followed
// by rest; else subst. It is not ok when the string is computed: any
// word may hold it.
func xargsReplace(s string, rest []*syntax.Word, subst string) (string, bool) {
	if long, ok := strings.CutPrefix(s, "--"); ok {
		name, value, hasValue := strings.Cut(long, "=")
		if len(name) < 3 || !strings.HasPrefix("replace", name) {
			return subst, true
		}
		if !hasValue {
			value = "{}"
		}
		return value, value != ""
	}
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == 'i' && j+1 == len(s):
			return "{}", true
		case c == 'i' || ((c == 'I' || c == 'J') && j+1 < len(s)):
			return s[j+1:], true
		case c == 'I' || c == 'J':
			if len(rest) == 0 {
				return subst, true
			}
			v, ok := literal(rest[0])
			return v, ok
		case strings.ContainsRune(shortValues["xargs"]+"el", rune(c)):
			return subst, true
		}
	}
	return subst, true
}

// plain names the command after a wrapper's "--": every word is an
// operand, timeout's duration first.
func plain(base string, args []*syntax.Word, duration bool, depth int, st *keyState, r reach) ([]string, error) {
	var keys []string
	for i, w := range args {
		s, ok := literal(w)
		switch {
		case !ok:
			return nil, errDynamic
		case strings.Contains(s, "=") && (base == "env" || base == "sudo"):
			if err := st.assigns(s); err != nil {
				return nil, err
			}
			keys = append(keys, s)
		case duration:
			duration = false
		default:
			more, err := callNames(args[i:], depth, st, r)
			return append(keys, more...), err
		}
	}
	if r.open {
		return nil, errDynamic
	}
	return keys, nil
}

type optionTakes int

const (
	valueNone optionTakes = iota
	valueNext
	valueMaybe
)

// optionValue says whether a wrapper's option word takes the next word
// as its value. env -S (--split-string) runs its value as the command
// line, which env splits by rules of its own, sudo -s and -i (--shell,
// --login) and doas -s run the user's shell, on the command or on what
// it reads, and sudo -R (--chroot) runs the command in another root,
// where its name is another file, so those have no keys.
func optionValue(base, s string) (optionTakes, error) {
	if long, ok := strings.CutPrefix(s, "--"); ok {
		name, _, hasValue := strings.Cut(long, "=")
		switch {
		case base == "env" && name != "" && strings.HasPrefix("split-string", name):
			return valueNone, errDynamic
		case base == "sudo" && name != "" && (strings.HasPrefix("shell", name) || strings.HasPrefix("login", name) || strings.HasPrefix("chroot", name)):
			return valueNone, errDynamic
		case hasValue:
			return valueNone, nil
		case slices.Contains(longValues[base], name):
			return valueNext, nil
		case name != "" && abbreviates(name, longFlags[base]) && !abbreviates(name, longValues[base]):
			return valueNone, nil
		}
		return valueMaybe, nil
	}
	for j, c := range s[1:] {
		if (base == "env" && c == 'S') || (base == "sudo" && (c == 's' || c == 'i' || c == 'R')) || (base == "doas" && c == 's') {
			return valueNone, errDynamic
		}
		if strings.ContainsRune(shortOptional[base], c) {
			return valueNone, nil
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

// abbreviates reports whether name begins one of options.
func abbreviates(name string, options []string) bool {
	return slices.ContainsFunc(options, func(o string) bool { return strings.HasPrefix(o, name) })
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
