package dispatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ArgumentError says why a call's arguments were refused. Its text is
// what the model reads, so it names the field at fault.
type ArgumentError struct {
	// Field is the dotted path of the bad field ("opt.depth", "tags[]"),
	// empty when the arguments as a whole are wrong.
	Field  string
	Reason string
	Err    error
}

func (e *ArgumentError) Error() string {
	if e.Field == "" {
		return "invalid arguments: " + e.Reason
	}
	return fmt.Sprintf("invalid arguments: field %q: %s", e.Field, e.Reason)
}

func (e *ArgumentError) Unwrap() error { return e.Err }

// ObjectArgs returns a call's arguments, as the model wrote them, if they
// are one JSON object, for a tool that passes them on rather than
// decoding them; blank arguments are the empty object. Otherwise it
// returns an *ArgumentError worded as a typed tool's refusal.
func ObjectArgs(args json.RawMessage) (json.RawMessage, error) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		return json.RawMessage("{}"), nil
	}
	// Into a RawMessage: a check of the syntax only, so that a number
	// too large for a float64 still passes.
	var raw json.RawMessage
	if err := json.Unmarshal(args, &raw); err != nil {
		return nil, malformed(err)
	}
	if args[0] != '{' {
		return nil, notObject(args)
	}
	return args, nil
}

// decodeArgs validates args against schema, then decodes them into dst.
// Empty arguments mean an empty object: models send nothing for tools
// without parameters.
func decodeArgs(schema *jsonschema.Resolved, args json.RawMessage, dst any) error {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return malformed(err)
	}
	if _, ok := v.(map[string]any); !ok {
		return notObject(args)
	}
	if err := schema.Validate(v); err != nil {
		return schemaError(err)
	}
	if err := json.Unmarshal(args, dst); err != nil {
		return decodeError(err)
	}
	return nil
}

func malformed(err error) *ArgumentError {
	return &ArgumentError{Reason: "malformed JSON: " + err.Error(), Err: err}
}

// notObject refuses args, one JSON value that is not an object, naming
// its kind by its first byte.
func notObject(args json.RawMessage) *ArgumentError {
	kind := "a number"
	switch args[0] {
	case 'n':
		kind = "null"
	case 't', 'f':
		kind = "a boolean"
	case '"':
		kind = "a string"
	case '[':
		kind = "an array"
	}
	return &ArgumentError{Reason: "must be a JSON object, got " + kind}
}

var (
	ratOne     = regexp.MustCompile(`\b(-?\d+)/1\b`)
	floatZeros = regexp.MustCompile(`\b(-?\d+)\.0+\b`)
)

// schemaError rewrites jsonschema's "validating root: validating
// /properties/a/properties/b: type: ..." into the field path "a.b" and the
// innermost reason.
func schemaError(err error) *ArgumentError {
	msg := err.Error()
	field := ""
	for {
		rest, ok := strings.CutPrefix(msg, "validating ")
		if !ok {
			break
		}
		loc, reason, ok := strings.Cut(rest, ": ")
		if !ok {
			break
		}
		if loc != "root" {
			field = fieldPath(loc)
		}
		msg = reason
	}
	msg = strings.TrimPrefix(msg, "type: ")
	// jsonschema prints a JSON null as the Go value it decoded to.
	msg = strings.Replace(msg, "<invalid reflect.Value> has type", "null has type", 1)
	// jsonschema prints bounds as rationals and floats: 300/1, 127.000000.
	msg = ratOne.ReplaceAllString(msg, "$1")
	msg = floatZeros.ReplaceAllString(msg, "$1")
	if props, ok := strings.CutPrefix(msg, "required: missing properties: "); ok {
		msg = "missing required properties " + props
	}
	return &ArgumentError{Field: field, Reason: msg, Err: err}
}

// fieldPath turns a schema location such as /properties/a/items/properties/b
// into a[].b.
func fieldPath(loc string) string {
	var b strings.Builder
	parts := strings.Split(strings.TrimPrefix(loc, "/"), "/")
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties", "additionalProperties":
			if parts[i] == "additionalProperties" {
				b.WriteString("{}")
				continue
			}
			if i+1 < len(parts) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(unescapePointer(parts[i+1]))
				i++
			}
		case "items", "prefixItems":
			b.WriteString("[]")
		}
	}
	return b.String()
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// decodeError reports what the schema could not see, such as a number too
// large for its Go type.
func decodeError(err error) *ArgumentError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return &ArgumentError{Field: te.Field, Reason: fmt.Sprintf("cannot hold %s as %s", te.Value, te.Type), Err: err}
	}
	return &ArgumentError{Reason: err.Error(), Err: err}
}
