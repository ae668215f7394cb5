package builtin

import (
	"slices"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// gitRevisionOptions are the options of git merge-base and rev-parse
// with which they still print object names only.
var gitRevisionOptions = map[string][]string{
	"merge-base": {"-a", "--all", "--fork-point", "--octopus", "--independent"},
	"rev-parse":  {"--verify", "-q", "--quiet", "--short"},
}

// revisionWord stands in gitRuns for a word gitRevisions accepts: no
// option and no git command has its name.
const revisionWord = "\x00revision"

// gitRevisions reports whether w is computed by one git merge-base or
// rev-parse call given fixed revisions ($(git merge-base main HEAD),
// quoted or not, maybe followed by fixed text such as ..HEAD): those
// print object names, which begin with no "-" and hold no space, so the
// word is no option of the git command it is given to, such as --output.
// rev-parse prints back a word it does not read as a revision (a word
// holding a space, --output=x) and merge-base -h its usage, so an option
// not listed, or a word with a space, makes the word computed otherwise.
func gitRevisions(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	first := w.Parts[0]
	if dq, ok := first.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		first = dq.Parts[0]
	}
	cs, ok := first.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	for _, part := range w.Parts[1:] {
		if lit, ok := part.(*syntax.Lit); !ok || strings.ContainsAny(lit.Value, "*?[\\") {
			return false
		}
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 || len(call.Args) < 2 {
		return false
	}
	words := make([]string, len(call.Args))
	for i, arg := range call.Args {
		if words[i], ok = literal(arg); !ok || strings.ContainsFunc(words[i], unicode.IsSpace) {
			return false
		}
	}
	safe, known := gitRevisionOptions[words[1]]
	return words[0] == "git" && known && !slices.ContainsFunc(words[2:], func(s string) bool {
		return strings.HasPrefix(s, "-") && !slices.Contains(safe, s)
	})
}
