package builtin

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// inlineCode names, for each interpreter, the one-letter options (in any
// word of them) and long options (or their abbreviations) that give it
// code on the line: perl -e, -E and -M (-M'x;code'), python -c, node -e
// and -p, php -r, -B, -R, -E and -d (an ini setting may prepend a file),
// lua -e, make --eval. Such a call's key is the call itself.
var inlineCode = map[string]struct {
	letters string
	long    []string
}{
	"perl": {letters: "eEMm"}, "python": {letters: "c"}, "python2": {letters: "c"}, "python3": {letters: "c"},
	"ruby": {letters: "e"}, "node": {letters: "ep", long: []string{"eval", "print", "import", "loader", "experimental-loader"}},
	"nodejs": {letters: "ep", long: []string{"eval", "print", "import", "loader", "experimental-loader"}},
	"bun":    {letters: "ep", long: []string{"eval", "print"}},
	"php":    {letters: "rBREd"}, "lua": {letters: "e"}, "luajit": {letters: "e"},
	"Rscript": {letters: "e"}, "julia": {letters: "eE", long: []string{"eval", "print"}},
	"osascript": {letters: "e"}, "make": {letters: "E", long: []string{"eval"}},
	"gmake": {letters: "E", long: []string{"eval"}},
}

// awks run a program given as their first operand.
var awks = map[string]bool{"awk": true, "gawk": true, "mawk": true, "nawk": true}

// callKey is the key of a call whose words are its own key: NAME and
// each argument quoted as sh would read it back, joined by spaces. No
// key of another kind begins with a command's name and a space, so
// approving one such call approves exactly its words again.
func callKey(name string, args []*syntax.Word) (string, error) {
	return callKeyWith(name, args, nil)
}

// callKeyWith is callKey with the words of vars, each a quoted variable
// (clientWords), written "$NAME": sh reads no literal word that way, as
// Quote escapes a "$" in double quotes, so no call of fixed words has
// the same key.
func callKeyWith(name string, args []*syntax.Word, vars map[int]string) (string, error) {
	words := []string{name}
	for i, w := range args {
		if v, ok := vars[i]; ok {
			words = append(words, `"$`+v+`"`)
			continue
		}
		s, ok := joinParts(w)
		if !ok {
			return "", errDynamic
		}
		q, err := syntax.Quote(s, syntax.LangBash)
		if err != nil {
			return "", errDynamic
		}
		words = append(words, q)
	}
	return strings.Join(words, " "), nil
}

// codeKey returns the key of an interpreter's call when code in the
// line decides what it does (perl -e, python -c, an awk program that
// can run or write anything, a sed script that can, an option that
// runs a command: rsync -e, git -c): the call itself, so approving one
// program never approves another. ok is false for the other calls,
// which keep their command's name as key. Words fed from elsewhere
// would change the call, so a fed one has no keys.
func codeKey(name, base string, args []*syntax.Word, r reach, st *keyState) (key string, ok bool, err error) {
	switch {
	case awks[base]:
		ok, err = awkRuns(args, r)
	case base == "sed":
		ok, err = sedRuns(args, r)
	case base == "git" || hasOptionRunner(base):
		ok, err = optionRuns(base, args, r)
	case dotClients[base].values != nil || dbClients[base].long != nil:
		return clientKey(name, base, args, r, st)
	case hasInlineCode(base, args):
		ok = true
	}
	if !ok || err != nil {
		return "", false, err
	}
	if r.open || r.fed(args) {
		return "", false, errDynamic
	}
	key, err = callKey(name, args)
	return key, err == nil, err
}

// hasInlineCode reports whether an interpreter's words give it code, as
// one of its inline code options. Every word is read, as options may
// follow operands, which only makes more calls keyed as themselves.
func hasInlineCode(base string, args []*syntax.Word) bool {
	code, known := inlineCode[base]
	if !known {
		return false
	}
	for _, w := range args {
		s, ok := joinParts(w)
		switch {
		case !ok:
		case strings.HasPrefix(s, "--"):
			name, _, _ := strings.Cut(s[2:], "=")
			for _, long := range code.long {
				if name != "" && strings.HasPrefix(long, name) {
					return true
				}
			}
		case strings.HasPrefix(s, "-") && strings.ContainsAny(s[1:], code.letters):
			return true
		case (base == "make" || base == "gmake") && strings.Contains(s, "="):
			return true // make CC='rm -rf x' runs that in its recipes
		}
	}
	return false
}

// awkRuns reports whether an awk call's program may do more than read
// and print: any option but -F and -v (gawk's -f, -e, -i, -l, -E load
// code; -d, -o, -p write files), a program from a word computed or fed,
// or one with system, a pipe or a redirection (| > @ for gawk's @load
// and indirect calls). Others keep the key awk.
func awkRuns(args []*syntax.Word, r reach) (bool, error) {
	for i := 0; i < len(args); i++ {
		s, ok := joinParts(args[i])
		switch {
		case !ok || (r.subst != "" && strings.Contains(s, r.subst)):
			return true, nil
		case s == "--":
			if i+1 < len(args) {
				return awkProgramRuns(args[i+1]), nil
			}
			return false, nil
		case s == "-F" || s == "-v":
			i++
		case strings.HasPrefix(s, "-F") || strings.HasPrefix(s, "-v"):
		case strings.HasPrefix(s, "-") && s != "-":
			return true, nil
		default:
			return awkProgramRuns(args[i]), nil
		}
	}
	if r.open {
		return false, errDynamic // the program is a word fed to it
	}
	return false, nil
}

// awkProgramRuns reports whether an awk program may run a command or
// write a file.
func awkProgramRuns(w *syntax.Word) bool {
	s, ok := joinParts(w)
	return !ok || strings.ContainsAny(s, "|>@") || strings.Contains(s, "system")
}
