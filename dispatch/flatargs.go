package dispatch

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// flatArgs is the check of a typed tool whose input is a struct of
// scalar fields (strings, booleans, numbers), derived once per type. For
// such a type the schema asks only for the field names, their JSON types
// and the required ones, which a scan of the object checks while it
// decodes each value straight into its field, without walking the schema
// and without encoding/json's reflection. Anything the scan cannot vouch
// for goes the general way, schema first, so a refusal reads exactly as
// it always did.
type flatArgs struct {
	fields   map[string]flatField
	required uint64 // bit i: field i must be present
}

// flatField is one property: the struct field it decodes into and the
// field's kind.
type flatField struct {
	index int
	kind  reflect.Kind
}

// flatArgsFor returns the check for In, or nil when In is not a flat
// struct of scalars or its schema asks for more than names and types.
func flatArgsFor(t reflect.Type, schema *jsonschema.Schema) *flatArgs {
	if t.Kind() != reflect.Struct || schema == nil || len(schema.Properties) != t.NumField() || t.NumField() > 64 {
		return nil
	}
	f := &flatArgs{fields: make(map[string]flatField, t.NumField())}
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() || sf.Anonymous || !scalar(sf.Type.Kind()) || strings.Contains(sf.Tag.Get("json"), ",string") || unmarshals(sf.Type) {
			return nil
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" {
			name = sf.Name
		}
		p := schema.Properties[name]
		if _, dup := f.fields[name]; dup || p == nil || name == "-" {
			return nil
		}
		if p.Type != jsonType(sf.Type.Kind()) || len(p.Types) > 0 || p.Enum != nil || p.Const != nil || p.Pattern != "" || p.Format != "" ||
			!typeBound(p.Minimum, sf.Type, false) || !typeBound(p.Maximum, sf.Type, true) || p.ExclusiveMinimum != nil || p.ExclusiveMaximum != nil ||
			p.MinLength != nil || p.MaxLength != nil || p.MultipleOf != nil {
			return nil
		}
		f.fields[name] = flatField{index: i, kind: sf.Type.Kind()}
	}
	for _, r := range schema.Required {
		field, ok := f.fields[r]
		if !ok {
			return nil
		}
		f.required |= 1 << field.index
	}
	return f
}

// typeBound reports whether bound, a property's minimum (or maximum when
// upper), is absent or the end of t's range: the schema derived for a
// sized integer states its range, which decoding into the field checks
// as it is.
func typeBound(bound *float64, t reflect.Type, upper bool) bool {
	if bound == nil {
		return true
	}
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		bits := t.Bits()
		if upper {
			return *bound == float64(int64(1)<<(bits-1)-1)
		}
		return *bound == -float64(int64(1)<<(bits-1))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		bits := t.Bits()
		if upper {
			return *bound == float64(uint64(1)<<bits-1)
		}
		return *bound == 0
	case reflect.Uint, reflect.Uint64:
		return !upper && *bound == 0
	}
	return false
}

// unmarshals reports whether encoding/json decodes into t by a method of
// its own (UnmarshalJSON or UnmarshalText), which the scan would skip.
func unmarshals(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(reflect.TypeFor[json.Unmarshaler]()) || pt.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}

// jsonType is the schema type the scan decodes a field of kind k from.
func jsonType(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "integer"
}

func scalar(k reflect.Kind) bool {
	switch k {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// decode decodes args into dst, a pointer to the struct, and reports
// true when they are certainly valid: an object whose every key is a
// field (named exactly), none null, every required field present, and
// every value of its field's type, as encoding/json would decode it. On
// false dst may hold part of the arguments, and the caller takes the
// general way; so does an object this scan leaves to encoding/json (a
// key or string with escapes or non-ASCII text that is not valid UTF-8).
//
// It reads the call's arguments as they are kept, a string: a string
// value without escapes is a part of it, not a copy.
func (f *flatArgs) decode(args string, dst any) bool {
	v := reflect.ValueOf(dst).Elem()
	s := flatScan{b: args}
	if !s.byte('{') {
		return false
	}
	var seen uint64
	if !s.byte('}') {
		for {
			key, ok := s.plainString()
			if !ok || !s.byte(':') {
				return false
			}
			field, ok := f.fields[key]
			if !ok || !s.value(v.Field(field.index), field.kind) {
				return false
			}
			seen |= 1 << field.index
			if s.byte(',') {
				continue
			}
			if !s.byte('}') {
				return false
			}
			break
		}
	}
	s.space()
	return s.i == len(s.b) && seen&f.required == f.required
}

// flatScan reads one JSON object of scalars.
type flatScan struct {
	b string
	i int
}

func (s *flatScan) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte skips white space and then c, reporting whether c was there.
func (s *flatScan) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// plainString reads a string without escapes and of valid UTF-8 (what
// encoding/json would decode byte for byte), returning its contents.
func (s *flatScan) plainString() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start, ascii := s.i, true
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			out := s.b[start:s.i]
			s.i++
			return out, ascii || utf8.ValidString(out)
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// value reads one value into field, which is of kind k.
func (s *flatScan) value(field reflect.Value, k reflect.Kind) bool {
	s.space()
	if s.i >= len(s.b) {
		return false
	}
	switch k {
	case reflect.String:
		str, ok := s.plainString()
		if ok {
			field.SetString(str)
		}
		return ok
	case reflect.Bool:
		switch {
		case strings.HasPrefix(s.b[s.i:], "true"):
			s.i += len("true")
			field.SetBool(true)
		case strings.HasPrefix(s.b[s.i:], "false"):
			s.i += len("false")
			field.SetBool(false)
		default:
			return false
		}
		return s.endOfLiteral()
	}
	num, ok := s.number()
	if !ok {
		return false
	}
	// The conversions encoding/json makes, refusing what it refuses.
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || field.OverflowInt(n) {
			return false
		}
		field.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(num, 10, 64)
		if err != nil || field.OverflowUint(n) {
			return false
		}
		field.SetUint(n)
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(num, field.Type().Bits())
		if err != nil || field.OverflowFloat(n) {
			return false
		}
		field.SetFloat(n)
	default:
		return false
	}
	return true
}

// endOfLiteral reports whether a literal just read ends there, as in
// `true,` and not `truex`.
func (s *flatScan) endOfLiteral() bool {
	if s.i == len(s.b) {
		return true
	}
	switch s.b[s.i] {
	case ',', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// number reads a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *flatScan) number() (string, bool) {
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.digits() == 0:
		return "", false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return "", false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return "", false
		}
	}
	if !s.endOfLiteral() {
		return "", false
	}
	return s.b[start:s.i], true
}

func (s *flatScan) digits() int {
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}
