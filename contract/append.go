package contract

import (
	"strconv"
	"unicode/utf8"
)

// The signals recorded on every turn (a model's reply, a tool's result)
// are written here field by field, without encoding/json's reflection.
// The bytes are exactly encoding/json's with HTML escaping off, which a
// property test checks against it over arbitrary values of every field,
// so a field added to these types without its line below fails that test.

// appendBody appends the canonical bytes of body when it is one of the
// signals written by hand; ok is false for every other value, and for a
// value a part of which does not encode, with b as it was.
func appendBody(b []byte, body any) (_ []byte, ok bool) {
	// The case does not bind the value, and the functions it calls are
	// not inlined: copies of every case's type would all take room in
	// this frame, which is on the stack of every step.
	switch body.(type) {
	case ModelReplied:
		return appendModelRepliedBody(b, body), true
	case ToolSettled:
		return appendToolSettledBody(b, body), true
	case Submitted:
		out, ok := appendSubmittedBody(b, body)
		if !ok {
			// Nothing half written is left for the caller's fallback.
			return b, false
		}
		return out, true
	}
	return b, false
}

// appendModelRepliedBody, appendToolSettledBody and appendSubmittedBody
// each copy their signal out of body in a frame of their own (see
// appendBody).
//
//go:noinline
func appendModelRepliedBody(b []byte, body any) []byte {
	v := body.(ModelReplied)
	return appendModelReplied(b, &v)
}

//go:noinline
func appendToolSettledBody(b []byte, body any) []byte {
	v := body.(ToolSettled)
	return appendToolSettled(b, &v)
}

//go:noinline
func appendSubmittedBody(b []byte, body any) ([]byte, bool) {
	v := body.(Submitted)
	return appendSubmitted(b, &v)
}

// appendSubmitted writes a submit record. It is one record a run, but
// encoding/json's walk of its nested values made it the deepest stack
// of a run's first step. ok is false when a part does not encode, for
// the caller to report.
func appendSubmitted(b []byte, s *Submitted) (_ []byte, ok bool) {
	b = append(b, `{"run_id":`...)
	b = appendJSONString(b, s.RunID)
	b = append(b, `,"input":`...)
	b = appendTurns(b, s.Input)
	if len(s.Retrieved) > 0 {
		b = append(b, `,"retrieved":`...)
		b = appendTurns(b, s.Retrieved)
	}
	if s.RetrievalError != "" {
		b = append(b, `,"retrieval_error":`...)
		b = appendJSONString(b, s.RetrievalError)
	}
	if len(s.Instructions) > 0 {
		b = append(b, `,"instructions":[`...)
		for i := range s.Instructions {
			if i > 0 {
				b = append(b, ',')
			}
			in := &s.Instructions[i]
			b = append(b, `{"name":`...)
			b = appendJSONString(b, in.Name)
			b = append(b, `,"hash":`...)
			b = appendJSONString(b, in.Hash)
			b = append(b, `,"text":`...)
			b = appendJSONString(b, in.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	var err error
	if len(s.Tools) > 0 {
		b = append(b, `,"tools":`...)
		if b, err = appendTools(b, s.Tools); err != nil {
			return b, false
		}
	}
	if len(s.Allowed) > 0 {
		b = append(b, `,"allowed":`...)
		b = appendStrings(b, s.Allowed)
	}
	if s.Config != nil {
		b = append(b, `,"config":`...)
		if b, err = appendConfig(b, s.Config); err != nil {
			return b, false
		}
	}
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, int64(s.At), 10)
	return append(b, '}'), true
}

// appendMarshalled appends the field name and v as encoding/json writes it.
func appendMarshalled(b []byte, field string, v any) ([]byte, error) {
	m, err := marshal(v)
	if err != nil {
		return b, err
	}
	return append(append(b, field...), m...), nil
}

func appendTurns(b []byte, turns []Turn) []byte {
	if turns == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range turns {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTurn(b, &turns[i])
	}
	return append(b, ']')
}

func appendModelReplied(b []byte, s *ModelReplied) []byte {
	b = append(b, `{"reply":`...)
	b = appendTurn(b, &s.Reply)
	if s.Usage != (Usage{}) {
		b = append(b, `,"usage":`...)
		b = appendUsage(b, &s.Usage)
	}
	if s.Stop != "" {
		b = append(b, `,"stop":`...)
		b = appendJSONString(b, string(s.Stop))
	}
	if len(s.Keys) > 0 {
		b = append(b, `,"keys":[`...)
		for i, k := range s.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"call":`...)
			b = strconv.AppendInt(b, int64(k.Call), 10)
			b = append(b, `,"keys":`...)
			b = appendStrings(b, k.Keys)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(s.RewrittenBy) > 0 {
		b = append(b, `,"rewritten_by":`...)
		b = appendStrings(b, s.RewrittenBy)
	}
	if s.OutputError != "" {
		b = append(b, `,"output_error":`...)
		b = appendJSONString(b, s.OutputError)
	}
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, int64(s.At), 10)
	return append(b, '}')
}

func appendToolSettled(b []byte, s *ToolSettled) []byte {
	b = append(b, `{"call_id":`...)
	b = appendJSONString(b, s.CallID)
	b = append(b, `,"outcome":{"content":`...)
	b = appendJSONString(b, s.Outcome.Content)
	if s.Outcome.IsError {
		b = append(b, `,"is_error":true`...)
	}
	if s.Outcome.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, '}')
	if s.Arguments != "" {
		b = append(b, `,"arguments":`...)
		b = appendJSONString(b, s.Arguments)
	}
	if len(s.RewrittenBy) > 0 {
		b = append(b, `,"rewritten_by":`...)
		b = appendStrings(b, s.RewrittenBy)
	}
	if s.Tokens != 0 {
		b = append(b, `,"tokens":`...)
		b = strconv.AppendInt(b, int64(s.Tokens), 10)
	}
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, int64(s.At), 10)
	return append(b, '}')
}

func appendTurn(b []byte, t *Turn) []byte {
	b = append(b, `{"role":`...)
	b = appendJSONString(b, string(t.Role))
	b = append(b, `,"blocks":`...)
	if t.Blocks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range t.Blocks {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendBlock(b, &t.Blocks[i])
		}
		b = append(b, ']')
	}
	if t.Mark != "" {
		b = append(b, `,"mark":`...)
		b = appendJSONString(b, string(t.Mark))
	}
	if t.Tokens != 0 {
		b = append(b, `,"tokens":`...)
		b = strconv.AppendInt(b, int64(t.Tokens), 10)
	}
	if t.Excluded {
		b = append(b, `,"excluded":true`...)
	}
	if t.ClientID != "" {
		b = append(b, `,"client_id":`...)
		b = appendJSONString(b, t.ClientID)
	}
	return append(b, '}')
}

func appendBlock(b []byte, k *Block) []byte {
	b = append(b, `{"kind":`...)
	b = appendJSONString(b, string(k.Kind))
	if k.Text != "" {
		b = append(b, `,"text":`...)
		b = appendJSONString(b, k.Text)
	}
	if k.Signature != "" {
		b = append(b, `,"signature":`...)
		b = appendJSONString(b, k.Signature)
	}
	if c := k.Call; c != nil {
		b = append(b, `,"call":{"id":`...)
		b = appendJSONString(b, c.ID)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, c.Name)
		b = append(b, `,"arguments":`...)
		b = appendJSONString(b, c.Arguments)
		b = append(b, '}')
	}
	if r := k.Result; r != nil {
		b = append(b, `,"result":{"call_id":`...)
		b = appendJSONString(b, r.CallID)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, r.Name)
		b = append(b, `,"content":`...)
		b = appendJSONString(b, r.Content)
		if r.IsError {
			b = append(b, `,"is_error":true`...)
		}
		b = append(b, '}')
	}
	if im := k.Image; im != nil {
		b = append(b, `,"image":{"uri":`...)
		b = appendJSONString(b, im.URI)
		if im.MediaType != "" {
			b = append(b, `,"media_type":`...)
			b = appendJSONString(b, im.MediaType)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendUsage(b []byte, u *Usage) []byte {
	b = append(b, '{')
	sep := false
	field := func(name string, v int64) {
		if v == 0 {
			return
		}
		if sep {
			b = append(b, ',')
		}
		sep = true
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, v, 10)
	}
	field("input_tokens", u.InputTokens)
	field("output_tokens", u.OutputTokens)
	field("cached_tokens", u.CachedTokens)
	field("reasoning_tokens", u.ReasoningTokens)
	field("model_calls", u.ModelCalls)
	field("tool_calls", u.ToolCalls)
	field("wall_nanos", u.WallNanos)
	return append(b, '}')
}

// appendStrings writes a string slice as encoding/json does: null when
// nil.
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// appendJSONString writes s quoted as encoding/json does with HTML
// escaping off: control characters, the quote and the backslash escaped,
// invalid UTF-8 as U+FFFD, and U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look: most of a
		// record's strings are plain ASCII.
		for ; i+8 <= len(s) && plainWord(word(s, i)); i += 8 {
		}
		if i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// word is the eight bytes of s from i, the first in the lowest byte. The
// slice has a fixed length, so the eight loads become one.
func word(s string, i int) uint64 {
	t := s[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// plainWord reports whether none of the eight bytes of w is a control
// character, a quote, a backslash or outside ASCII: the bytes
// appendJSONString copies as they are. Each test is the usual
// word-at-a-time one for a byte below a bound or equal to a value.
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	below := (w - ones*0x20) & ^w
	eq := (quote-ones) & ^quote | (backslash-ones) & ^backslash
	return (below|eq|w)&highs == 0
}
