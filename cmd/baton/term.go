package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from a model, a tool, a stored session or a remote client reaches
// the terminal only through these functions. A control character there
// could clear the screen, retitle the window, move the cursor over what
// was printed (so an approval prompt shows a harmless command) or reorder
// a line with bidirectional overrides; each is written as a visible escape
// instead, such as \x1b or \u202e.

// safeText escapes s for the terminal, keeping newlines and tabs.
func safeText(s string) string { return escapeTerm(s, true) }

// safeLine escapes s for one terminal line: newlines are escaped too.
func safeLine(s string) string { return escapeTerm(s, false) }

func escapeTerm(s string, multiline bool) string {
	if !needsEscape(s, multiline) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && !multiline:
			b.WriteString(`\n`)
		case r == '\t' && !multiline:
			b.WriteString(`\t`)
		case unsafeRune(r, multiline):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || unsafeRune(r, multiline) || (!multiline && (r == '\n' || r == '\t')) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune reports runes a terminal acts on rather than shows: C0 and
// C1 controls (ESC, CSI, carriage return, backspace...), DEL, line and
// paragraph separators and the bidirectional controls.
func unsafeRune(r rune, multiline bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !multiline
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// hasControl reports whether an id holds a character that is not shown
// as itself on a terminal, or is shown as nothing (a format character
// such as a zero-width space); such ids are refused, as the server
// refuses such thread ids.
func hasControl(s string) bool {
	return needsEscape(s, false) || strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Cf, r) })
}

// checkID refuses a session id given on the command line that a terminal
// would not show as typed.
func checkID(what, id string) error {
	if hasControl(id) {
		return fmt.Errorf("%s %q holds control characters; use printable characters only", what, id)
	}
	return nil
}
