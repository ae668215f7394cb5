package builtin

import (
	"slices"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// literal returns a word's value when it is fixed text, quoted or not.
// Glob characters, a backslash left after unquoting, a brace expansion
// and a quoted tilde count as not fixed: what the word names is decided
// when the line runs, or, for the tilde, it would read as the home folder
// in a key (> "~"/.bashrc writes ./~/.bashrc, > ~/.bashrc the real one).
func literal(w *syntax.Word) (string, bool) {
	s, ok := joinParts(w)
	if !ok || s == "" || strings.ContainsAny(s, "\\*?[") || braced(w) {
		return "", false
	}
	for _, part := range w.Parts {
		if _, plain := part.(*syntax.Lit); !plain && strings.Contains(partText(part), "~") {
			return "", false
		}
	}
	return s, true
}

// commandName returns the name a word gives the command it starts, as
// literal does, and "[" for test's other name: a lone "[" closes no
// bracket expression, so sh runs it as it is written.
func commandName(w *syntax.Word) (string, bool) {
	if s, ok := joinParts(w); ok && s == "[" {
		return s, true
	}
	return literal(w)
}

// joinParts returns the text a word of fixed parts stands for, with its
// quotes and backslashes removed as sh removes them: eval, sh -c, trap
// and alias parse that text again, so "echo \$(rm x)" is echo $(rm x).
func joinParts(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, inner := range p.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescape(lit.Value, "$`\"\\\n"))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// joinAll returns the text of each word, as joinParts does; it is not
// ok when one is computed.
func joinAll(args []*syntax.Word) ([]string, bool) {
	words := make([]string, len(args))
	for i, w := range args {
		s, ok := joinParts(w)
		if !ok {
			return nil, false
		}
		words[i] = s
	}
	return words, true
}

// unescape removes the backslashes sh removes: before any character
// outside quotes (only, empty), before those of only inside double
// quotes; a backslash before a newline goes with the newline.
func unescape(s, only string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) || (only != "" && !strings.ContainsRune(only, rune(s[i+1]))) {
			b.WriteByte(s[i])
			continue
		}
		i++
		if s[i] != '\n' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// partText is the text of a quoted part, for the tilde check.
func partText(part syntax.WordPart) string {
	switch p := part.(type) {
	case *syntax.SglQuoted:
		return p.Value
	case *syntax.DblQuoted:
		var b strings.Builder
		for _, inner := range p.Parts {
			if lit, ok := inner.(*syntax.Lit); ok {
				b.WriteString(lit.Value)
			}
		}
		return b.String()
	}
	return ""
}

// braced reports whether bash expands braces in w ({rm,-rf,x} runs rm);
// dash does not, so such a word names no one thing. SplitBraces reads
// words of plain text only, so each other part stands in as a letter:
// {rm,'-rf',x} expands as {rm,q,x} does.
func braced(w *syntax.Word) bool {
	parts := slices.Clone(w.Parts)
	for i, part := range parts {
		if _, ok := part.(*syntax.Lit); !ok {
			parts[i] = &syntax.Lit{Value: "q"}
		}
	}
	w = &syntax.Word{Parts: parts}
	if !syntax.SplitBraces(w) {
		return false
	}
	// SplitBraces also splits {} and {x}, which bash leaves as they are.
	return slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool {
		b, ok := p.(*syntax.BraceExp)
		return ok && (b.Sequence || len(b.Elems) > 1)
	})
}

// plainName reports whether a command name can be a key of its own: one
// with a space, an "=" or a leading ">" reads as another kind of key (a
// sourced file, a variable, a written file), so approving a command of
// that odd name would approve that too. No command's name begins with
// "-": the parser reads time -o FILE rm as time running -o, while sh's
// /usr/bin/time writes FILE and runs rm.
func plainName(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == '=' }) &&
		!strings.HasPrefix(s, ">") && !strings.HasPrefix(s, "-")
}

// validName reports whether s names a shell variable.
func validName(s string) bool {
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// expands reports whether sh may turn w into other words, or other
// text: a glob outside quotes, or a brace expansion. A program whose
// options may come from such a word (tar -cf a.tar *, where a file is
// named --to-command=x) reads them as options.
func expands(w *syntax.Word) bool {
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok && strings.ContainsAny(lit.Value, "*?[") {
			return true
		}
	}
	return braced(w)
}

// fixedText returns the text of a word, as joinParts does; it is not
// ok when the word is computed or expands.
func fixedText(w *syntax.Word) (string, bool) {
	if expands(w) {
		return "", false
	}
	return joinParts(w)
}
