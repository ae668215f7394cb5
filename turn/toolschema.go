package turn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
)

// unionKeywords combine schemas; the function-calling APIs refuse them at
// the top of a tool's input schema.
var unionKeywords = []string{"allOf", "anyOf", "oneOf"}

// topOnlyConstraints are the other top-level keywords OpenAI refuses
// there. They only narrow which objects are valid, so they are left off
// the wire and the tool still checks them.
var topOnlyConstraints = []string{"not", "enum", "const"}

// maxSchemaDepth bounds the unions and references ToolSchema follows, so
// a reference to itself ends.
const maxSchemaDepth = 16

// ToolSchema returns a tool's input schema as the function-calling APIs
// take it: a JSON object of type object with properties. Both OpenAI and
// Anthropic refuse a schema whose top level is of another type or holds
// anyOf, oneOf or allOf, and such schemas are common: a sum type, or an
// MCP tool taking one of several sets of arguments, or Pydantic's
// Optional[Model], anyOf the model and null. A tool's arguments are
// always an object, so a branch of anyOf or oneOf whose type excludes
// object, or that is the boolean schema false, is never the one taken
// and is left out, and a type list holding object is object; a branch
// true, which any object matches, makes anyOf or oneOf add nothing (and
// allOf leaves it out). When every branch left of such a union is an object
// (a local $ref is followed, and a $ref its target holds), the union
// becomes one object with the properties of every branch; a property is required
// where the union requires it whichever branch is taken (for allOf, where
// any branch requires it), and a property the branches define differently
// is any of their definitions. The schema on the wire is thus looser than
// the tool's own, which the tool still checks its arguments against; the
// one exception is a property some branches leave open (they do not
// close their properties), which takes only the types the branches that
// define it give it, as the tool's author meant. A
// missing or null schema is a tool without arguments; a schema that
// cannot be an object (a union with no branch left, allOf with a branch
// of another type or false) or whose type is not a type name is an error.
func ToolSchema(raw json.RawMessage) (map[string]any, error) {
	var s map[string]any
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("is not a JSON object: %w", err)
		}
	}
	if s == nil {
		s = map[string]any{}
	}
	out, err := objectSchema(s, s, 0)
	if err != nil {
		return nil, err
	}
	for _, k := range topOnlyConstraints {
		delete(out, k)
	}
	out["type"] = "object"
	if _, ok := out["properties"]; !ok {
		out["properties"] = map[string]any{}
	}
	return out, nil
}

// objectSchema is s, an object schema inside root, with its top-level
// unions merged into it.
func objectSchema(root, s map[string]any, depth int) (map[string]any, error) {
	if depth > maxSchemaDepth {
		return nil, errors.New("nests unions or references too deep")
	}
	s, err := dereference(root, s)
	if err != nil {
		return nil, err
	}
	if typ, ok := s["type"]; ok {
		if err := takesObjects(typ); err != nil {
			return nil, err
		}
	}
	out := maps.Clone(s)
	delete(out, "$ref")
	for _, key := range unionKeywords {
		list, ok := s[key]
		if !ok {
			continue
		}
		delete(out, key)
		branches, err := unionBranches(root, key, list, depth)
		if err != nil {
			return nil, err
		}
		if branches == nil {
			// The union takes any object: it adds nothing to out.
			continue
		}
		merge(out, key, branches)
	}
	return out, nil
}

// unionBranches is each branch of the union key as an object schema, or
// nil when the union takes any object. A branch may be a boolean schema:
// false matches nothing, so it is left out of anyOf and oneOf like a
// branch of another type, and allOf with it matches nothing; true
// matches anything, so allOf leaves it out and anyOf or oneOf with it
// takes any object (for oneOf, any object the tool's own check then
// sorts out, as for the union's other looseness on the wire).
func unionBranches(root map[string]any, key string, list any, depth int) ([]map[string]any, error) {
	items, ok := list.([]any)
	if !ok || len(items) == 0 {
		return nil, fmt.Errorf("%s is not a list of schemas", key)
	}
	var out []map[string]any
	takesAny := false
	for i, item := range items {
		switch item {
		case false:
			if key == "allOf" {
				return nil, notObjectError{fmt.Sprintf("%s[%d] is false, which nothing matches", key, i)}
			}
			continue
		case true:
			takesAny = takesAny || key != "allOf"
			continue
		}
		b, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d] is not a schema object", key, i)
		}
		obj, err := objectSchema(root, b, depth+1)
		var no notObjectError
		if errors.As(err, &no) && key != "allOf" {
			// Arguments are an object: this branch is never the one taken.
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", key, i, err)
		}
		out = append(out, obj)
	}
	switch {
	case takesAny:
		return nil, nil
	case len(out) == 0 && key != "allOf":
		return nil, notObjectError{fmt.Sprintf("%s has no branch an object can match", key)}
	}
	return out, nil
}

// notObjectError says that a schema matches no object, so no tool's
// arguments: a branch of anyOf or oneOf that says so is left out.
type notObjectError struct{ reason string }

func (e notObjectError) Error() string { return e.reason }

// takesObjects reports whether a schema of type typ can match an object:
// a notObjectError when it cannot, another error when typ is neither a
// type name nor a list of them, which ToolSchema does not guess about.
func takesObjects(typ any) error {
	switch t := typ.(type) {
	case string:
		if t == "object" {
			return nil
		}
	case []any:
		if slices.ContainsFunc(t, func(x any) bool { _, ok := x.(string); return !ok }) {
			return fmt.Errorf("type %v is not a list of type names", typ)
		}
		if slices.Contains(t, any("object")) {
			return nil
		}
	default:
		return fmt.Errorf("type %v is not a type name", typ)
	}
	return notObjectError{fmt.Sprintf("type is %v, want object", typ)}
}

// dereference is the schema a local $ref ("#/$defs/name") in s names,
// with s's own keywords beside it, following a $ref that schema holds in
// turn (a definition that only names another).
func dereference(root, s map[string]any) (map[string]any, error) {
	for range maxSchemaDepth {
		if _, ok := s["$ref"].(string); !ok {
			return s, nil
		}
		var err error
		if s, err = dereferenceOnce(root, s); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("nests unions or references too deep")
}

// dereferenceOnce is dereference for s's own $ref only.
func dereferenceOnce(root, s map[string]any) (map[string]any, error) {
	ref := s["$ref"].(string)
	target := any(root)
	path, ok := strings.CutPrefix(ref, "#")
	for _, part := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if !ok || part == "" {
			break
		}
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		var m map[string]any
		m, ok = target.(map[string]any)
		if ok {
			target, ok = m[part]
		}
	}
	t, isObject := target.(map[string]any)
	if !ok || !isObject {
		return nil, fmt.Errorf("$ref %q names no schema in this one", ref)
	}
	out := maps.Clone(t)
	for k, v := range s {
		if k != "$ref" {
			out[k] = v
		}
	}
	return out, nil
}

// merge puts the properties and required names of a union's branches
// into out, the object holding the union.
func merge(out map[string]any, key string, branches []map[string]any) {
	own, _ := out["properties"].(map[string]any)
	props := maps.Clone(own)
	if props == nil {
		props = map[string]any{}
	}
	defs := map[string][]any{}
	var names []string
	for _, b := range branches {
		bp, _ := b["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(bp)) {
			if _, ok := own[name]; ok {
				continue
			}
			if _, seen := defs[name]; !seen {
				names = append(names, name)
			}
			if !slices.ContainsFunc(defs[name], func(d any) bool { return reflect.DeepEqual(d, bp[name]) }) {
				defs[name] = append(defs[name], bp[name])
			}
		}
	}
	for _, name := range names {
		if d := defs[name]; len(d) == 1 {
			props[name] = d[0]
		} else {
			props[name] = map[string]any{combinator(key): d}
		}
	}
	out["properties"] = props
	if req := required(out, key, branches); len(req) > 0 {
		out["required"] = req
	} else {
		delete(out, "required")
	}
}

// combinator joins a property's different definitions: any of them for
// a branch taken alone, all of them for allOf.
func combinator(key string) string {
	if key == "allOf" {
		return "allOf"
	}
	return "anyOf"
}

// required is what out requires itself and what the union requires
// whichever branch is taken: the names every branch requires, or for
// allOf the names any branch requires.
func required(out map[string]any, key string, branches []map[string]any) []any {
	req := names(out["required"])
	add := func(n any) {
		if !slices.Contains(req, n) {
			req = append(req, n)
		}
	}
	if key == "allOf" {
		for _, b := range branches {
			for _, n := range names(b["required"]) {
				add(n)
			}
		}
		return req
	}
	for _, n := range names(branches[0]["required"]) {
		if !slices.ContainsFunc(branches, func(b map[string]any) bool { return !slices.Contains(names(b["required"]), n) }) {
			add(n)
		}
	}
	return req
}

// names is a schema's required list.
func names(v any) []any {
	list, _ := v.([]any)
	var out []any
	for _, n := range list {
		if _, ok := n.(string); ok {
			out = append(out, n)
		}
	}
	return out
}

// ToolSchemaErrors names each of tools whose input schema ToolSchema
// refuses, for a ConfigChecker.
func ToolSchemaErrors(tools []contract.ToolDescriptor) []contract.FieldError {
	var bad []contract.FieldError
	for i, t := range tools {
		if _, err := ToolSchema(t.InputSchema); err != nil {
			bad = append(bad, contract.FieldError{Field: fmt.Sprintf("Tools[%d].InputSchema", i), Reason: fmt.Sprintf("tool %q: %v", t.Name, err)})
		}
	}
	return bad
}
