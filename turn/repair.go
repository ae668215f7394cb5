package turn

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

// RepairArguments turns almost-JSON tool arguments into the text of a JSON
// object: it strips code fences and surrounding space, removes trailing
// commas, closes unterminated strings, objects and arrays, turns single
// quotes into double ones, quotes bare keys, maps Python's True, False and
// None, unwraps an object encoded as a JSON string, and reads empty input
// as "{}". Hopeless input returns ok=false and the caller keeps the
// original text so the model can be told.
func RepairArguments(s string) (fixed string, ok bool) {
	s = stripFences(strings.TrimSpace(s))
	if s == "" {
		return "{}", true
	}
	if isObject(s) {
		return s, true
	}
	var inner string
	if json.Unmarshal([]byte(s), &inner) == nil && isObject(strings.TrimSpace(inner)) {
		return strings.TrimSpace(inner), true
	}
	if !utf8.ValidString(s) || s[0] != '{' {
		return "", false
	}
	out, ok := repair(s)
	if !ok || !isObject(out) {
		return "", false
	}
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(out)) != nil {
		return "", false
	}
	return buf.String(), true
}

func isObject(s string) bool {
	return len(s) > 0 && s[0] == '{' && contract.ValidJSON(s)
}

func stripFences(s string) string {
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	if nl := strings.IndexByte(s, '\n'); nl >= 0 && !strings.ContainsAny(s[:nl], "{[\"") {
		s = s[nl+1:]
	}
	s = strings.TrimSpace(s)
	return strings.TrimSpace(strings.TrimSuffix(s, "```"))
}

// repair rewrites s token by token into JSON; ok is false on a structure
// it cannot mend, such as mismatched brackets.
func repair(s string) (string, bool) {
	var b strings.Builder
	var stack []byte
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			i = copyString(&b, s, i)
		case c == '{' || c == '[':
			stack = append(stack, c)
			b.WriteByte(c)
			i++
		case c == '}' || c == ']':
			if len(stack) == 0 || stack[len(stack)-1] != opener(c) {
				return "", false
			}
			stack = stack[:len(stack)-1]
			trimComma(&b)
			b.WriteByte(c)
			i++
		case isIdentStart(c):
			i = copyBareword(&b, s, i)
		default:
			b.WriteByte(c)
			i++
		}
	}
	trimComma(&b)
	if out := strings.TrimRight(b.String(), " \t\r\n"); strings.HasSuffix(out, ":") {
		b.WriteString("null")
	}
	for i := len(stack) - 1; i >= 0; i-- {
		trimComma(&b)
		if stack[i] == '{' {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	return b.String(), true
}

func opener(c byte) byte {
	if c == '}' {
		return '{'
	}
	return '['
}

// trimComma drops a trailing comma (and the space after it).
func trimComma(b *strings.Builder) {
	s := strings.TrimRight(b.String(), " \t\r\n")
	if strings.HasSuffix(s, ",") {
		s = s[:len(s)-1]
		b.Reset()
		b.WriteString(s)
	}
}

// copyString copies the string starting at s[i] as a JSON string, closing
// it if the input ends first, and returns the index after it.
func copyString(b *strings.Builder, s string, i int) int {
	quote := s[i]
	var raw strings.Builder
	i++
	for i < len(s) {
		c := s[i]
		switch {
		case c == quote:
			writeJSONString(b, raw.String())
			return i + 1
		case c == '\\' && i+1 < len(s):
			n := unescape(&raw, s[i+1:])
			i += 1 + n
			continue
		case c == '\\':
			i++
			continue
		}
		raw.WriteByte(c)
		i++
	}
	writeJSONString(b, raw.String())
	return i
}

// unescape writes the escape sequence that rest (the text after a
// backslash) starts with and returns how many bytes it used.
func unescape(raw *strings.Builder, rest string) int {
	switch rest[0] {
	case 'n':
		raw.WriteByte('\n')
	case 't':
		raw.WriteByte('\t')
	case 'r':
		raw.WriteByte('\r')
	case 'b':
		raw.WriteByte('\b')
	case 'f':
		raw.WriteByte('\f')
	case 'u':
		var r string
		// A surrogate pair is one character in two escapes: read apart,
		// each would be U+FFFD.
		if len(rest) >= 11 && rest[5] == '\\' && rest[6] == 'u' && json.Unmarshal([]byte(`"\u`+rest[1:5]+`\u`+rest[7:11]+`"`), &r) == nil && utf8.RuneCountInString(r) == 1 && r != "\uFFFD" {
			raw.WriteString(r)
			return 11
		}
		if len(rest) >= 5 && json.Unmarshal([]byte(`"\u`+rest[1:5]+`"`), &r) == nil {
			raw.WriteString(r)
			return 5
		}
		raw.WriteByte('u')
	default:
		raw.WriteByte(rest[0])
	}
	return 1
}

func writeJSONString(b *strings.Builder, s string) {
	enc, _ := json.Marshal(s)
	b.Write(enc)
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdent(c byte) bool {
	return isIdentStart(c) || c == '-' || (c >= '0' && c <= '9')
}

// copyBareword maps Python and JSON literals and quotes any other bare
// word, which is a key or a string value the model forgot to quote.
func copyBareword(b *strings.Builder, s string, i int) int {
	j := i
	for j < len(s) && isIdent(s[j]) {
		j++
	}
	switch w := s[i:j]; w {
	case "true", "True":
		b.WriteString("true")
	case "false", "False":
		b.WriteString("false")
	case "null", "None":
		b.WriteString("null")
	default:
		writeJSONString(b, w)
	}
	return j
}
