package builtin

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The line runs as sh -c, and sh is dash on Debian and bash elsewhere;
// the keys come from mvdan.cc/sh's bash parser. Where the two shells read
// a line other than the parser does, the line has no keys: what the
// parser calls data, a test or a blank, one of them may run.
var (
	// errBlankCR: the parser takes a carriage return for a blank, and
	// drops it before a newline; sh takes it for a letter, so "\r#"
	// starts no comment and "EOF\r" ends no here-document of "EOF".
	errBlankCR = errors.New("a carriage return or NUL is read one way by the parser, another by sh")
	// errTestClause: dash has no [[ ]], so it runs [[ and the words
	// after || or && inside as commands, and > inside as a redirection.
	errTestClause = errors.New("[[ ]] is a test for bash, commands for dash")
	// errAmpRedirect: dash reads "cmd &>FILE more" as "cmd &" and a new
	// command ">FILE more".
	errAmpRedirect = errors.New("words after &> are another command for dash")
	// errHdocEnd: bash ends a here-document in $(...) at a line that
	// begins with its delimiter ("EOF)"), so the lines after it run.
	errHdocEnd = errors.New("a here-document line begins with its delimiter")
	// errArrayElem: dash runs x[a/b]=1 as the command it names.
	errArrayElem = errors.New("an array element assignment is a command for dash")
	// errPromptExp: bash runs the command substitutions ${x@P} finds in x.
	errPromptExp = errors.New("${x@...} may run what the variable holds")
)

// blankSafe refuses a line holding bytes the parser and sh read apart.
func blankSafe(line string) error {
	if strings.ContainsAny(line, "\r\x00") {
		return errBlankCR
	}
	return nil
}

// dialectKeys refuses a node that dash or bash reads other than the
// parser: see the errors above. line is the text the node was parsed
// from, for here-document bodies.
func dialectKeys(n syntax.Node, line string) error {
	switch n := n.(type) {
	case *syntax.TestClause:
		return errTestClause
	case *syntax.Stmt:
		return ampRedirect(n)
	case *syntax.CallExpr:
		for _, a := range n.Assigns {
			if a.Index != nil {
				return errArrayElem
			}
		}
	case *syntax.ParamExp:
		if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps {
			return errPromptExp
		}
	case *syntax.Redirect:
		return hdocEnd(n, line)
	}
	return nil
}

// ampRedirect refuses &> or &>> with any of the command's words after it.
func ampRedirect(s *syntax.Stmt) error {
	if s.Cmd == nil {
		return nil
	}
	for _, r := range s.Redirs {
		if (r.Op == syntax.RdrAll || r.Op == syntax.AppAll) && s.Cmd.End().Offset() > r.Pos().Offset() {
			return errAmpRedirect
		}
	}
	return nil
}

// hdocEnd refuses a here-document with a body line that, blanks before it
// cut, begins with the delimiter: bash and dash may end the body there.
// The parser's body ends with the line that ended it.
func hdocEnd(r *syntax.Redirect, line string) error {
	if (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) || r.Hdoc == nil {
		return nil
	}
	delim, ok := joinParts(r.Word)
	start, end := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
	if !ok || start > end || end > len(line) {
		return errHdocEnd
	}
	body := strings.Split(line[start:end], "\n")
	for _, l := range body[:len(body)-1] {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), delim) {
			return errHdocEnd
		}
	}
	return nil
}
