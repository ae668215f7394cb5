package dispatch

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// flatArgs is the check of a typed tool whose input is a struct of
// scalar fields (strings, booleans, numbers), derived once per type. For
// such a type the schema asks only for the field names, their JSON types
// and the required ones, which decoding into the struct and a look at the
// object's keys check without walking the schema; anything else those
// checks cannot vouch for goes the general way, schema first, so a
// refusal reads exactly as it always did.
type flatArgs struct {
	props    map[string]bool
	required []string
}

// flatArgsFor returns the check for In, or nil when In is not a flat
// struct of scalars or its schema asks for more than names and types.
func flatArgsFor(t reflect.Type, schema *jsonschema.Schema) *flatArgs {
	if t.Kind() != reflect.Struct || schema == nil || len(schema.Properties) != t.NumField() {
		return nil
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous || !scalar(f.Type.Kind()) || strings.Contains(f.Tag.Get("json"), ",string") {
			return nil
		}
	}
	for _, p := range schema.Properties {
		if p == nil || p.Type == "" || len(p.Types) > 0 || p.Enum != nil || p.Const != nil || p.Pattern != "" || p.Format != "" ||
			p.Minimum != nil || p.Maximum != nil || p.ExclusiveMinimum != nil || p.ExclusiveMaximum != nil ||
			p.MinLength != nil || p.MaxLength != nil || p.MultipleOf != nil {
			return nil
		}
	}
	props := make(map[string]bool, len(schema.Properties))
	for name := range schema.Properties {
		props[name] = true
	}
	return &flatArgs{props: props, required: schema.Required}
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

// decode decodes args into dst and reports true when they are certainly
// valid: an object whose every key is a field (named exactly), none null,
// every required field present, and every value of its field's type. On
// false dst may hold part of the arguments, and the caller takes the
// general way.
func (f *flatArgs) decode(args json.RawMessage, dst any) bool {
	var raw map[string]json.RawMessage
	if json.Unmarshal(args, &raw) != nil || raw == nil {
		return false
	}
	for k, v := range raw {
		if !f.props[k] || bytes.Equal(v, []byte("null")) {
			return false
		}
	}
	for _, r := range f.required {
		if _, ok := raw[r]; !ok {
			return false
		}
	}
	return json.Unmarshal(args, dst) == nil
}
