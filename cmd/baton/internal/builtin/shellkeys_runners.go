package builtin

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// errOpaqueRunner: the line runs a program that runs a command its keys
// cannot name, or in a root, namespace or machine other than this one.
var errOpaqueRunner = errors.New("a program on the line runs commands its keys cannot name")

// errRunnerOption: a runner's option the keys do not know may take the
// next word as its value, and so hide which word is the command.
var errRunnerOption = errors.New("an option of a program that runs a command is not known")

// opaqueRunners run a command the line's keys cannot name: as another
// user through that user's shell (su, runuser), in another root or
// namespace where its name is another file (chroot, nsenter, unshare,
// bwrap, firejail), on another machine (ssh), as a unit with properties
// of its own (systemd-run), from lines they read or build (parallel,
// script, gdb, and editors whose commands, from their options or stdin,
// run a shell: ed, ex, vi, vim -c '!cmd', emacs --eval), or behind
// option sets too large to read (strace, ltrace, valgrind, perf,
// prlimit, numactl, cpulimit, pkexec). A line with one has no keys.
var opaqueRunners = map[string]bool{
	"chroot": true, "nsenter": true, "unshare": true, "bwrap": true, "firejail": true,
	"su": true, "runuser": true, "pkexec": true, "ssh": true, "systemd-run": true,
	"parallel": true, "sem": true, "script": true, "gdb": true,
	"ed": true, "ex": true, "vi": true, "vim": true, "nvim": true, "view": true, "vimdiff": true, "emacs": true,
	"strace": true, "ltrace": true, "valgrind": true, "perf": true,
	"prlimit": true, "numactl": true, "cpulimit": true,
}

// runnerSpec is how a program that runs the command after its options
// and operands reads them. Every option it has is named, as one not
// named may take the command as its value; such a line has no keys.
type runnerSpec struct {
	flags    string          // one-letter options without a value
	values   string          // one-letter options with a value, attached or the next word
	optional string          // one-letter options whose value, if any, is attached
	long     map[string]byte // long options, by the one letter they stand for
}

// runners read their options as getopt does with "+": up to the first
// operand. flock runs FILE's command or -c LINE, taskset MASK's command
// (none with -p), watch its words joined as a sh -c line (or, with -x,
// as a command), catchsegv and chronic the command after them.
var runners = map[string]runnerSpec{
	"flock": {flags: "sexunoFhV", values: "wE", long: map[string]byte{
		"shared": 's', "exclusive": 'x', "unlock": 'u', "nonblock": 'n', "nb": 'n',
		"close": 'o', "no-fork": 'F', "wait": 'w', "timeout": 'w',
		"conflict-exit-code": 'E', "verbose": '!', "help": 'h', "version": 'V',
	}},
	"taskset": {flags: "apchV", long: map[string]byte{
		"all-tasks": 'a', "pid": 'p', "cpu-list": 'c', "help": 'h', "version": 'V',
	}},
	"watch": {flags: "bceghprtwvx", values: "nq", optional: "d", long: map[string]byte{
		"beep": 'b', "color": 'c', "no-color": 'C', "differences": 'd', "errexit": 'e',
		"chgexit": 'g', "equexit": 'q', "interval": 'n', "precise": 'p', "no-rerun": 'r',
		"no-title": 't', "no-wrap": 'w', "no-linewrap": 'w', "exec": 'x', "help": 'h', "version": 'v',
	}},
	"catchsegv": {},
	"chronic":   {flags: "ev"},
}

// takes reports whether the option of letter c takes a value.
func (s runnerSpec) takes(c byte) bool { return strings.IndexByte(s.values, c) >= 0 }

// runnerOptions reads a runner's options; it returns where its operands
// begin and the letters of the options given.
func runnerOptions(spec runnerSpec, args []*syntax.Word) (int, string, error) {
	var seen strings.Builder
	for i := 0; i < len(args); i++ {
		s, ok := literal(args[i])
		switch {
		case !ok:
			return 0, "", errDynamic
		case s == "--":
			return i + 1, seen.String(), nil
		case s == "-" || !strings.HasPrefix(s, "-"):
			return i, seen.String(), nil
		case strings.HasPrefix(s, "--"):
			name, _, hasValue := strings.Cut(s[2:], "=")
			c, known := spec.long[name]
			if !known {
				return 0, "", errRunnerOption
			}
			seen.WriteByte(c)
			if spec.takes(c) && !hasValue {
				i++
			}
		default:
			next, err := shortRunnerOptions(spec, s, &seen)
			if err != nil {
				return 0, "", err
			}
			i += next
		}
	}
	return len(args), seen.String(), nil
}

// shortRunnerOptions reads one word of one-letter options; it returns 1
// when the last takes the next word as its value.
func shortRunnerOptions(spec runnerSpec, s string, seen *strings.Builder) (int, error) {
	for j := 1; j < len(s); j++ {
		c := s[j]
		seen.WriteByte(c)
		switch {
		case strings.IndexByte(spec.flags, c) >= 0:
		case strings.IndexByte(spec.optional, c) >= 0:
			return 0, nil
		case spec.takes(c) && j+1 == len(s):
			return 1, nil
		case spec.takes(c):
			return 0, nil
		default:
			return 0, errRunnerOption
		}
	}
	return 0, nil
}

// runnerNames names what a runner runs. Words fed from elsewhere (xargs,
// find -exec) may be its options or command, so a fed runner has no keys.
func runnerNames(base string, args []*syntax.Word, depth int, st *keyState, r reach) ([]string, error) {
	if r.open || r.fed(args) {
		return nil, errDynamic
	}
	i, seen, err := runnerOptions(runners[base], args)
	if err != nil {
		return nil, err
	}
	rest := args[i:]
	for _, w := range rest[:min(len(rest), operandsBefore(base))] {
		if _, ok := literal(w); !ok {
			return nil, errDynamic // split into words, it may move the command
		}
	}
	switch {
	case base == "taskset" && strings.Contains(seen, "p"):
		return nil, nil // taskset -p [MASK] PID runs nothing
	case base == "flock":
		return flockNames(rest, depth, st)
	case base == "watch" && !strings.Contains(seen, "x"):
		return watchNames(rest, depth, st)
	}
	if skip := operandsBefore(base); len(rest) > skip {
		return callNames(rest[skip:], depth, st, reach{})
	}
	return nil, nil
}

// operandsBefore is how many operands come before a runner's command.
func operandsBefore(base string) int {
	if base == "flock" || base == "taskset" {
		return 1
	}
	return 0
}

// flockNames names what flock FILE runs: the command after FILE, or the
// line after -c run by $SHELL; flock FD alone runs nothing.
func flockNames(rest []*syntax.Word, depth int, st *keyState) ([]string, error) {
	if len(rest) < 2 {
		return nil, nil
	}
	if s, _ := literal(rest[1]); s != "-c" && s != "--command" {
		return callNames(rest[1:], depth, st, reach{})
	}
	if len(rest) != 3 {
		return nil, nil // flock refuses more or fewer words after -c
	}
	line, ok := joinParts(rest[2])
	if !ok {
		return nil, errDynamic
	}
	return commandNames(line, depth+1, st)
}

// watchNames names what watch runs without -x: its words joined by
// spaces, run by sh -c.
func watchNames(rest []*syntax.Word, depth int, st *keyState) ([]string, error) {
	if len(rest) == 0 {
		return nil, nil
	}
	words, ok := joinAll(rest)
	if !ok {
		return nil, errDynamic
	}
	return commandNames(strings.Join(words, " "), depth+1, st)
}

func hasRunnerSpec(base string) bool {
	_, ok := runners[base]
	return ok
}
