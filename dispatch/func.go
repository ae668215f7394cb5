package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/google/jsonschema-go/jsonschema"
)

// Func returns a Tool that runs fn. The tool's input schema is derived
// from In by github.com/google/jsonschema-go (json tags name the fields,
// omitempty makes one optional, a jsonschema tag describes it), and every
// call's arguments are validated against it before fn runs: bad arguments
// give an error outcome naming the field, and fn is not called. In must
// be a struct or a map with string keys, since models only call tools
// whose arguments are an object. If Out is a string it is the outcome's
// content as is; if it is a contract.ToolOutcome it is the outcome as is,
// for a tool that says it cut its output or failed; otherwise the content
// is Out marshalled as JSON, and an Out that encoding/json can never
// encode (a channel, a function, a complex number anywhere in it) is
// refused here rather than failing every call. When In
// is a struct of scalar fields, valid arguments are checked by decoding
// them and looking at their keys, derived once per type, without walking
// the schema; anything else still goes through the schema.
func Func[In, Out any](name, description string, fn func(context.Context, In) (Out, error), opts ...Option) (Tool, error) {
	d := contract.ToolDescriptor{Name: name, Description: description}
	for _, o := range opts {
		if o != nil {
			o(&d)
		}
	}
	if err := checkDescriptor(d); err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, fmt.Errorf("%w %q: nil function", ErrInvalidTool, name)
	}
	if err := schemaDescribes(reflect.TypeFor[In](), map[reflect.Type]bool{}); err != nil {
		return nil, fmt.Errorf("%w %q: input type: %w", ErrInvalidTool, name, err)
	}
	if err := encodable(reflect.TypeFor[Out](), map[reflect.Type]bool{}); err != nil {
		return nil, fmt.Errorf("%w %q: output type: %w", ErrInvalidTool, name, err)
	}
	schema, err := jsonschema.ForType(reflect.TypeFor[In](), schemaOptions())
	if err != nil {
		return nil, fmt.Errorf("%w %q: input schema: %w", ErrInvalidTool, name, err)
	}
	if schema.Type != "object" {
		return nil, fmt.Errorf("%w %q: input type must be a struct or a map, its schema has type %q", ErrInvalidTool, name, schema.Type)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("%w %q: resolve input schema: %w", ErrInvalidTool, name, err)
	}
	d.InputSchema, err = json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("%w %q: encode input schema: %w", ErrInvalidTool, name, err)
	}
	return &funcTool[In, Out]{d: d, schema: resolved, flat: flatArgsFor(reflect.TypeFor[In](), schema), fn: fn}, nil
}

// MustFunc is Func for tools defined at init time; it panics on error.
func MustFunc[In, Out any](name, description string, fn func(context.Context, In) (Out, error), opts ...Option) Tool {
	t, err := Func(name, description, fn, opts...)
	if err != nil {
		panic(err)
	}
	return t
}

type funcTool[In, Out any] struct {
	d      contract.ToolDescriptor
	schema *jsonschema.Resolved
	// flat checks arguments of a flat struct without the schema; nil for
	// other inputs.
	flat *flatArgs
	fn   func(context.Context, In) (Out, error)
}

func (t *funcTool[In, Out]) Descriptor() contract.ToolDescriptor { return t.d }

func (t *funcTool[In, Out]) Call(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error) {
	return t.callText(ctx, string(args))
}

// callText is Call with the arguments as the call keeps them; the
// scheduler calls it (see textCaller) so that they need no copy.
func (t *funcTool[In, Out]) callText(ctx context.Context, args string) (contract.ToolOutcome, error) {
	var in In
	if t.flat == nil || !t.flat.decode(args, &in) {
		in = *new(In)
		if err := decodeArgs(t.schema, json.RawMessage(args), &in); err != nil {
			return contract.ToolOutcome{Content: err.Error(), IsError: true}, nil
		}
	}
	out, err := t.fn(ctx, in)
	if err != nil {
		return contract.ToolOutcome{}, err
	}
	switch o := any(out).(type) {
	case string:
		return contract.ToolOutcome{Content: o}, nil
	case contract.ToolOutcome:
		return o, nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return contract.ToolOutcome{}, fmt.Errorf("dispatch: tool %q: encode result: %w", t.d.Name, err)
	}
	return contract.ToolOutcome{Content: string(b)}, nil
}

// DerivedSchema is the JSON Schema of t as Func derives a typed tool's
// input schema: anything else that derives a schema from a Go type and
// decodes into it with encoding/json uses it, so that the schema passes
// what the decoder takes. It refuses t, as Func does, when the schema
// could not describe a json feature of t.
func DerivedSchema(t reflect.Type) (*jsonschema.Schema, error) {
	if err := schemaDescribes(t, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	return jsonschema.ForType(t, schemaOptions())
}

// schemaOptions are how Func and DerivedSchema derive a schema from a Go
// type.
func schemaOptions() *jsonschema.ForOptions {
	return &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		// Any JSON value, as encoding/json decodes it, not []byte; the
		// types listed, as an empty schema would become null only for a
		// pointer.
		reflect.TypeFor[json.RawMessage](): {Types: []string{"null", "boolean", "object", "array", "number", "string"}},
	}}
}

// schemaDescribes reports the json features of t that the schema
// jsonschema-go derives does not describe, so that the schema the model is
// sent would refuse what encoding/json takes or take what it drops: an
// embedded struct with a json name (one field to encoding/json, its
// fields flattened into the parent by the schema), the ",string" option
// on a scalar (a quoted value to encoding/json, a bare one to the
// schema), and embedded fields whose json names the two resolve apart
// (see sameFields).
func schemaDescribes(t reflect.Type, seen map[reflect.Type]bool) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	for i := range t.NumField() {
		sf := t.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		ft := sf.Type
		if ft.Name() == "" && ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
			// Neither encoding/json nor the schema looks at it.
			continue
		}
		if sf.Anonymous && name != "" && ft.Kind() == reflect.Struct {
			return fmt.Errorf("field %s.%s: an embedded struct with a json name is not described by the derived schema", t, sf.Name)
		}
		if (sf.IsExported() || sf.Anonymous) && slices.Contains(strings.Split(opts, ","), "string") && scalar(ft.Kind()) {
			return fmt.Errorf("field %s.%s: the json \",string\" option is not described by the derived schema", t, sf.Name)
		}
		if err := schemaDescribes(sf.Type, seen); err != nil {
			return err
		}
	}
	return sameFields(t)
}
