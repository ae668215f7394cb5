package main

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// jsonSafe writes JSON to w with the characters a terminal acts on that
// encoding/json and the canonical encoding leave raw (C1 controls, DEL,
// the bidirectional controls) escaped as \uXXXX, as safeText escapes
// them for people: a script's output is read on a terminal too. JSON
// holds such a character only inside a string, where the escape means
// the same character, so every consumer decodes the same values.
//
// Each write must hold whole characters; the JSON encoders and the run
// log write whole values, one line at a time.
func jsonSafe(w io.Writer) io.Writer { return jsonSafeWriter{w} }

type jsonSafeWriter struct{ w io.Writer }

func (j jsonSafeWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(escapeJSONTerm(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// escapeJSONTerm returns b with the runes unsafeRune names at or above
// DEL written as \uXXXX; the ones below are escaped by any JSON encoder
// already. b is returned as it is when it holds none.
func escapeJSONTerm(b []byte) []byte {
	var out []byte
	start := 0
	for i := 0; i < len(b); {
		if b[i] < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError || !unsafeRune(r, false) {
			i += n
			continue
		}
		out = append(out, b[start:i]...)
		out = fmt.Appendf(out, `\u%04x`, r)
		i += n
		start = i
	}
	if out == nil {
		return b
	}
	return append(out, b[start:]...)
}
