package builtin

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// sedLongs are sed's long options: those taking a value (by '=' or the
// next word) name the letter they stand for, the others "".
var sedLongs = map[string]string{
	"expression": "e", "file": "f", "line-length": "l", "in-place": "", "quiet": "",
	"silent": "", "regexp-extended": "", "separate": "", "unbuffered": "", "null-data": "",
	"posix": "", "debug": "", "sandbox": "", "follow-symlinks": "", "binary": "",
	"zero-terminated": "",
}

// sedRuns reports whether a sed call may do more than edit text: a
// script from a file (-f), an option it does not know, or a script
// with a command or s flag that runs a command or reads or writes a
// file (e, w, W, r, R). A script read from stdin, computed or fed from
// elsewhere gives the call no keys, as do words xargs appends before
// no "--".
func sedRuns(args []*syntax.Word, r reach) (bool, error) {
	if r.open && !slices.ContainsFunc(args, func(w *syntax.Word) bool { s, _ := joinParts(w); return s == "--" }) {
		return false, errDynamic // GNU sed reads options after operands too, so fed words may be -e SCRIPT
	}
	var c sedCall
	if err := c.read(args, r); err != nil || c.unknown {
		return c.unknown && err == nil, err
	}
	return c.runs(r)
}

// sedCall is what a sed call's words give it: its -e scripts, whether
// one comes from a file, its operands ("" for a path find puts there)
// and their words, and whether it has an option sedRuns does not know;
// whether it edits in place (-i), with what backup suffix, the word BSD
// reads as the suffix of a lone -i, and whether an option follows an
// operand, which BSD reads as a file.
type sedCall struct {
	scripts, operands    []string
	words                []*syntax.Word
	fromFile, unknown    bool
	inPlace, interleaved bool
	suffix               string
	bsdSuffix            *syntax.Word
}

// read reads a sed call's words.
func (c *sedCall) read(args []*syntax.Word, r reach) error {
	for i := 0; i < len(args); i++ {
		s, ok := joinParts(args[i])
		fed := r.subst != "" && strings.Contains(s, r.subst)
		switch {
		case !ok || (fed && (!r.paths || strings.HasPrefix(s, "-"))):
			return errDynamic // the word may be an option or the script
		case fed:
			c.operands = append(c.operands, "")
			c.words = append(c.words, args[i])
		case s == "--":
			for _, w := range args[i+1:] {
				s, _ := joinParts(w)
				if r.subst != "" && strings.Contains(s, r.subst) {
					s = ""
				}
				c.operands = append(c.operands, s)
				c.words = append(c.words, w)
			}
			return nil
		case strings.HasPrefix(s, "-") && s != "-":
			c.interleaved = c.interleaved || len(c.operands) > 0
			letter, value, next, known := sedOption(s)
			if !known || (next && i+1 == len(args)) {
				c.unknown = true
				return nil
			}
			if next {
				i++
				value, _ = joinParts(args[i])
			}
			if r.subst != "" && strings.Contains(value, r.subst) {
				return errDynamic
			}
			if err := c.option(letter, value); err != nil {
				return err
			}
			if letter == 'i' {
				c.inPlace, c.suffix, c.bsdSuffix = true, value, nil
				if value == "" && !strings.HasPrefix(s, "--") && i+1 < len(args) {
					c.bsdSuffix = args[i+1]
				}
			}
		default:
			c.operands = append(c.operands, s)
			c.words = append(c.words, args[i])
		}
	}
	return nil
}

// option notes an option's script or script file.
func (c *sedCall) option(letter byte, value string) error {
	switch letter {
	case 'e':
		c.scripts = append(c.scripts, value)
	case 'f':
		c.fromFile = true
		return sedScriptFile(value)
	}
	return nil
}

// runs judges the call's script: its -e scripts, else its first
// operand; a script file may hold anything.
func (c *sedCall) runs(r reach) (bool, error) {
	switch {
	case c.fromFile:
		return true, nil
	case len(c.scripts) > 0:
		return sedScriptRuns(strings.Join(c.scripts, "\n")), nil
	case len(c.operands) == 0 && r.open:
		return false, errDynamic // the script is a word fed to it
	case len(c.operands) == 0:
		return false, nil
	case c.operands[0] == "":
		return false, errDynamic // find's path is the script
	}
	return sedScriptRuns(c.operands[0]), nil
}

// sedScriptFile refuses a script file that holds whatever sed is fed.
func sedScriptFile(path string) error {
	if path == "-" || strings.HasPrefix(path, "/dev/") || strings.HasPrefix(path, "/proc/") {
		return errDynamic
	}
	return nil
}

// sedOption reads one option word: the letter of the last option in it
// that takes a value (e, f, l; i takes the rest of its word), that
// value when in the word, and whether it is the next word instead.
// known is false for an option sedRuns does not know.
func sedOption(s string) (letter byte, value string, next, known bool) {
	if long, ok := strings.CutPrefix(s, "--"); ok {
		name, value, hasValue := strings.Cut(long, "=")
		if name == "in-place" {
			return 'i', value, false, true
		}
		l, known := sedLongs[name]
		if !known || l == "" {
			return 0, "", false, known
		}
		return l[0], value, !hasValue, true
	}
	for j := 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == 'i':
			return c, s[j+1:], false, true
		case c == 'e' || c == 'f' || c == 'l':
			return c, s[j+1:], j+1 == len(s), true
		case strings.IndexByte("nrEsuzb", c) < 0:
			return 0, "", false, false
		}
	}
	return 0, "", false, true
}

// sedScriptRuns reports whether a sed script may run a command or read
// or write a file, or cannot be read for sure. Older GNU sed finds the
// end of a regular expression by its delimiter alone, BSD sed and GNU
// sed 4.9 skip brackets too, so a script with a bracket is read both
// ways.
func sedScriptRuns(script string) bool {
	if sedParse(script, false) {
		return true
	}
	return strings.Contains(script, "[") && sedParse(script, true)
}

// sedParse reads a sed script's commands; it reports true at a command
// or s flag of e, w, W, r or R, or at anything it does not know.
func sedParse(s string, brackets bool) bool {
	p := &sedParser{s: s, brackets: brackets}
	for {
		p.skip(" \t\n;")
		if p.i >= len(s) {
			return false
		}
		if !p.address() {
			return true
		}
		p.skip(" \t")
		if p.i < len(s) && s[p.i] == ',' {
			p.i++
			p.skip(" \t")
			if !p.address() {
				return true
			}
		}
		p.skip(" \t!")
		if p.i >= len(s) {
			return true
		}
		if s[p.i] == '{' {
			p.i++
			continue // a block's first command may follow at once
		}
		if !p.command() {
			return true
		}
		p.skip(" \t")
		if p.i < len(s) && !strings.ContainsRune(";\n}#", rune(s[p.i])) {
			return true
		}
	}
}

type sedParser struct {
	s        string
	i        int
	brackets bool
}

func (p *sedParser) skip(set string) {
	for p.i < len(p.s) && strings.IndexByte(set, p.s[p.i]) >= 0 {
		p.i++
	}
}

// address reads an optional address (N, $, N~M, +N, ~N, /re/, \cREc,
// with I or M after a regular expression); false when it is cut short.
func (p *sedParser) address() bool {
	if p.i >= len(p.s) {
		return true
	}
	switch c := p.s[p.i]; {
	case c == '/' || c == '\\':
		if c == '\\' {
			p.i++
			if p.i >= len(p.s) {
				return false
			}
		}
		delim := p.s[p.i]
		p.i++
		if !p.until(delim) {
			return false
		}
		p.skip("IM")
	default:
		p.skip("0123456789$~+")
	}
	return true
}

// until moves past the next delimiter not escaped (nor, reading BSD's
// way, in brackets); false when there is none.
func (p *sedParser) until(delim byte) bool {
	if delim == '\n' || delim == '\\' {
		return false
	}
	for ; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; {
		case c == '\\':
			p.i++
		case c == '[' && p.brackets:
			end := bracketEnd(p.s, p.i)
			if end < 0 {
				return false
			}
			p.i = end
		case c == delim:
			p.i++
			return true
		}
	}
	return false
}

// command reads one command and its arguments; false for one that may
// run a command or touch a file, or is not known.
func (p *sedParser) command() bool {
	c := p.s[p.i]
	p.i++
	switch {
	case strings.IndexByte("}=dDgGhHnNpPxzF", c) >= 0:
		return true
	case strings.IndexByte("qQlL", c) >= 0:
		p.skip(" \t")
		p.skip("0123456789")
		return true
	case strings.IndexByte(":btT", c) >= 0:
		return p.label()
	case strings.IndexByte("aic", c) >= 0:
		p.text()
		return true
	case c == 's':
		return p.substitute()
	case c == 'y':
		// y's parts are plain characters, brackets too.
		brackets := p.brackets
		p.brackets = false
		ok := p.i < len(p.s) && p.twoParts()
		p.brackets = brackets
		return ok
	case c == '#':
		p.text()
		return true
	}
	return false
}

// label reads a label: plain characters up to ; or a newline.
func (p *sedParser) label() bool {
	p.skip(" \t")
	for ; p.i < len(p.s) && p.s[p.i] != ';' && p.s[p.i] != '\n'; p.i++ {
		c := p.s[p.i]
		if !(c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// text moves to the end of a line, past escaped newlines: the text of
// a, i and c, or a comment.
func (p *sedParser) text() {
	for ; p.i < len(p.s) && p.s[p.i] != '\n'; p.i++ {
		if p.s[p.i] == '\\' {
			p.i++
		}
	}
}

// twoParts reads the delimited pattern and replacement of s or y.
func (p *sedParser) twoParts() bool {
	delim := p.s[p.i]
	p.i++
	return p.until(delim) && p.replacement(delim)
}

// replacement moves past a replacement up to its delimiter; brackets
// are plain text there.
func (p *sedParser) replacement(delim byte) bool {
	brackets := p.brackets
	p.brackets = false
	ok := p.until(delim)
	p.brackets = brackets
	return ok
}

// substitute reads s's parts and flags; its e and w flags run a command
// or write a file.
func (p *sedParser) substitute() bool {
	if p.i >= len(p.s) || !p.twoParts() {
		return false
	}
	for ; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		switch {
		case strings.IndexByte("gpiImM0123456789", c) >= 0:
		case strings.IndexByte(" \t;\n}#", c) >= 0:
			return true
		default:
			return false
		}
	}
	return true
}

// bracketEnd returns the index of the "]" that ends the bracket
// expression opening at s[open], as sed reads it: a "]" first (after
// any "^") is a plain character, and [:class:], [.sym.] and [=eq=]
// inside may hold "]" and the delimiter; -1 when it does not end.
func bracketEnd(s string, open int) int {
	i := open + 1
	if i < len(s) && s[i] == '^' {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	for ; i < len(s); i++ {
		switch {
		case s[i] == ']':
			return i
		case s[i] == '[' && i+1 < len(s) && strings.IndexByte(":.=", s[i+1]) >= 0:
			end := strings.Index(s[i+2:], string(s[i+1])+"]")
			if end < 0 {
				return -1
			}
			i += 2 + end + 1
		}
	}
	return -1
}
