package builtin

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scriptOptions names, for each interpreter that runs a script file
// given as its first operand, the one-letter options it may be given
// before the script: flags, which take no value, and values, which take
// the rest of their word or else the next word. Any other option, which
// may take the script's word as its value, leaves the call without
// keys. A script named by python's -m is a module.
var scriptOptions = map[string]struct{ flags, values string }{
	"python": {flags: "bBdEhIOPqsSuvVxR", values: "WX"}, "python2": {flags: "bBdEhIOPqsSuvVxR3t", values: "WXQ"},
	"python3": {flags: "bBdEhIOPqsSuvVxR", values: "WX"},
	"perl":    {flags: "wWXTtnpasScUuvVh", values: "I"},
	"ruby":    {}, "node": {}, "nodejs": {}, "php": {}, "lua": {}, "luajit": {},
	"Rscript": {}, "julia": {}, "osascript": {}, "tclsh": {}, "expect": {},
}

// perlAttached are perl's one-letter options whose value, if any, is the
// rest of their word: -0777, -l, -i.bak, -F:, -C, -d:Mod, -D, -x.
const perlAttached = "0lixCdDF"

// scriptKey returns the key of an interpreter's call that runs a script
// file: the interpreter, the options before the script and the script's
// path, each quoted, so approving one script never approves another,
// while the script's own arguments may change. ok is false for calls of
// other programs and shells given -c. A call that reads its program
// from stdin (sh, sh -s, python -, python -i, echo x | perl), where a
// heredoc, pipe or redirection may feed it anything, has no keys; one
// that only prints its version or help keeps its name as key.
func scriptKey(name, base string, args []*syntax.Word, r reach, st *keyState) (key string, ok bool, err error) {
	_, isScript := scriptOptions[base]
	if !isScript && (!inlineShells[base] || base == "eval") {
		return "", false, nil
	}
	words := make([]string, len(args))
	for i, w := range args {
		words[i], _ = joinParts(w)
	}
	var at int
	if isScript {
		at, err = interpreterOptions(base, words)
	} else {
		var cflag bool
		if at, cflag = shellOptions(words); cflag {
			return "", false, nil
		}
		err = shellReadsStdin(words[:at])
	}
	switch {
	case err != nil:
		return "", false, err
	case at < len(words):
		if slices.ContainsFunc(words[:at+1], func(s string) bool { return r.subst != "" && strings.Contains(s, r.subst) }) {
			return "", false, errDynamic // fed words may be the script or its options
		}
	case r.open:
		return "", false, errDynamic // the script is a word fed to it
	case onlyAsks(words):
		return name, true, nil
	}
	if at >= len(words) || words[at] == "-" {
		return "", false, errDynamic
	}
	script := words[at]
	if strings.HasPrefix(script, "/dev/") || strings.HasPrefix(script, "/proc/") {
		return "", false, errDynamic
	}
	if !strings.HasPrefix(script, "/") && !strings.HasPrefix(script, "~") {
		st.runPaths = append(st.runPaths, "./"+script) // found from the current directory
	}
	key, err = callKey(name, args[:at+1])
	return key, err == nil, err
}

// onlyAsks reports whether an interpreter's words only ask for its
// version or help, so it reads no program.
func onlyAsks(words []string) bool {
	for _, w := range words {
		if w != "--version" && w != "--help" {
			return false
		}
	}
	return len(words) > 0
}

// shellReadsStdin refuses a shell's options that make it read commands
// from stdin whatever its operands: -s, and -i for an interactive one.
func shellReadsStdin(options []string) error {
	for i := 0; i < len(options); i++ {
		w := options[i]
		if len(w) < 2 || w[0] != '-' || w[1] == '-' {
			if w == "--rcfile" || w == "--init-file" {
				i++
			}
			continue
		}
		if strings.ContainsAny(w, "si") {
			return errDynamic
		}
		i += strings.Count(w, "o") + strings.Count(w, "O")
	}
	return nil
}

// interpreterOptions reads an interpreter's options before its script;
// it returns the index of the script's word (python -m's module), or
// len(words) when there is none. python's -i, which reads stdin after
// the script, and an option not known leave the call without keys.
func interpreterOptions(base string, words []string) (int, error) {
	spec := scriptOptions[base]
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			return i + 1, nil
		case w == "-" || !strings.HasPrefix(w, "-"):
			return i, nil
		case w == "--version" || w == "--help":
			continue
		case strings.HasPrefix(w, "--"):
			return 0, errDynamic
		}
		for j := 1; j < len(w); j++ {
			c := w[j]
			switch {
			case c == 'i' && base != "perl":
				return 0, errDynamic
			case base == "perl" && strings.IndexByte(perlAttached, c) >= 0:
				j = len(w)
			case c == 'm' && j+1 == len(w) && strings.HasPrefix(base, "python"):
				return i + 1, nil // the module is the script
			case strings.IndexByte(spec.values, c) >= 0 && j+1 == len(w):
				i++
			case strings.IndexByte(spec.values, c) >= 0:
				j = len(w)
			case strings.IndexByte(spec.flags, c) < 0:
				return 0, errDynamic
			}
		}
	}
	return len(words), nil
}
