package contract

import "encoding/json"

// ValidJSON reports whether s is one valid JSON value, as json.Valid
// does for its bytes, without converting s or running json's scanner,
// a state machine called through a function value for every byte: tool
// arguments are checked this way on every call. Values nested deeper
// than maxFastDepth are left to json.Valid, which bounds nesting itself.
func ValidJSON(s string) bool {
	v := validator{s: s}
	v.space()
	if !v.value(0) {
		return v.tooDeep && json.Valid([]byte(s))
	}
	v.space()
	return v.i == len(s)
}

const maxFastDepth = 64

type validator struct {
	s       string
	i       int
	tooDeep bool
}

func (v *validator) space() {
	for v.i < len(v.s) {
		switch v.s[v.i] {
		case ' ', '\t', '\n', '\r':
			v.i++
		default:
			return
		}
	}
}

func (v *validator) value(depth int) bool {
	if v.i == len(v.s) {
		return false
	}
	switch c := v.s[v.i]; {
	case c == '{':
		return v.object(depth + 1)
	case c == '[':
		return v.array(depth + 1)
	case c == '"':
		return v.str()
	case c == '-' || c >= '0' && c <= '9':
		return v.number()
	case c == 't':
		return v.literal("true")
	case c == 'f':
		return v.literal("false")
	case c == 'n':
		return v.literal("null")
	}
	return false
}

func (v *validator) literal(word string) bool {
	if len(v.s)-v.i < len(word) || v.s[v.i:v.i+len(word)] != word {
		return false
	}
	v.i += len(word)
	return true
}

func (v *validator) object(depth int) bool {
	if depth > maxFastDepth {
		v.tooDeep = true
		return false
	}
	v.i++ // {
	v.space()
	if v.i < len(v.s) && v.s[v.i] == '}' {
		v.i++
		return true
	}
	for {
		if v.i == len(v.s) || v.s[v.i] != '"' || !v.str() {
			return false
		}
		v.space()
		if v.i == len(v.s) || v.s[v.i] != ':' {
			return false
		}
		v.i++
		v.space()
		if !v.value(depth) {
			return false
		}
		if more, ok := v.after('}'); !more {
			return ok
		}
	}
}

func (v *validator) array(depth int) bool {
	if depth > maxFastDepth {
		v.tooDeep = true
		return false
	}
	v.i++ // [
	v.space()
	if v.i < len(v.s) && v.s[v.i] == ']' {
		v.i++
		return true
	}
	for {
		if !v.value(depth) {
			return false
		}
		if more, ok := v.after(']'); !more {
			return ok
		}
	}
}

// after reads what follows a member or an element: a comma, with more to
// come, or the closing bracket; ok is false for anything else.
func (v *validator) after(closing byte) (more, ok bool) {
	v.space()
	if v.i == len(v.s) {
		return false, false
	}
	switch v.s[v.i] {
	case ',':
		v.i++
		v.space()
		return true, true
	case closing:
		v.i++
		return false, true
	}
	return false, false
}

// str reads a string from its opening quote. As json.Valid, it takes any
// byte from 0x20 up, valid UTF-8 or not. It works on a copy of the
// position, which stays in a register, and stores it only when the
// string is whole: a false answer ends the validation, and nothing
// reads the position after it.
func (v *validator) str() bool {
	s, i := v.s, v.i+1 // after the quote
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			v.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			i++
			if i == len(s) {
				return false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if len(s)-i < 5 {
					return false
				}
				for _, h := range []byte(s[i+1 : i+5]) {
					if !isHex(h) {
						return false
					}
				}
				i += 5
			default:
				return false
			}
		default:
			i++
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (v *validator) number() bool {
	if v.s[v.i] == '-' {
		v.i++
	}
	switch {
	case v.i == len(v.s):
		return false
	case v.s[v.i] == '0':
		v.i++
	case v.s[v.i] >= '1' && v.s[v.i] <= '9':
		v.digits()
	default:
		return false
	}
	if v.i < len(v.s) && v.s[v.i] == '.' {
		v.i++
		if !v.digits() {
			return false
		}
	}
	if v.i < len(v.s) && (v.s[v.i] == 'e' || v.s[v.i] == 'E') {
		v.i++
		if v.i < len(v.s) && (v.s[v.i] == '+' || v.s[v.i] == '-') {
			v.i++
		}
		if !v.digits() {
			return false
		}
	}
	return true
}

// digits reads one or more digits.
func (v *validator) digits() bool {
	start := v.i
	for v.i < len(v.s) && v.s[v.i] >= '0' && v.s[v.i] <= '9' {
		v.i++
	}
	return v.i > start
}
