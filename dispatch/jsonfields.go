package dispatch

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// sameFields reports where the properties jsonschema-go derives for the
// struct t differ from the fields encoding/json decodes. The schema lists
// every field reflect.VisibleFields gives, the last of a json name
// winning and each one adding to required, and skips embedded fields;
// encoding/json goes by json names, keeps the shallowest field of a
// name, drops two at one depth, hides no field by its Go name alone, and
// decodes an embedded non-struct as a field of its type's name.
// A promoted field a json:"-" field hides is left out of both in effect:
// the schema refuses the property, so no argument reaches the decoder.
func sameFields(t reflect.Type) error {
	decoded := decodedFields(t)
	described := map[string]reflect.StructField{}
	requiredBy := map[string]reflect.StructField{}
	for _, sf := range reflect.VisibleFields(t) {
		name, ok := schemaName(sf)
		if !ok {
			continue
		}
		if schemaRequires(sf) {
			if other, dup := requiredBy[name]; dup {
				return fmt.Errorf("fields %s and %s of %s both take the json name %q, which the derived schema cannot describe", goPath(t, other.Index), goPath(t, sf.Index), t, name)
			}
			requiredBy[name] = sf
		}
		described[name] = sf
	}
	for _, name := range slices.Sorted(maps.Keys(described)) {
		sf := described[name]
		if index, ok := decoded[name]; !ok || !slices.Equal(index, sf.Index) {
			return fmt.Errorf("field %s of %s: encoding/json does not decode it as %q, which the derived schema says it does", goPath(t, sf.Index), t, name)
		}
		if isUnexportedStructPointer(t, sf.Index) {
			return fmt.Errorf("field %s of %s: encoding/json cannot set the embedded pointer to an unexported struct it is reached through", goPath(t, sf.Index), t)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(decoded)) {
		if _, ok := described[name]; !ok && !hiddenOnPurpose(t, decoded[name]) {
			return fmt.Errorf("field %s of %s: encoding/json decodes it as %q, which the derived schema leaves out", goPath(t, decoded[name]), t, name)
		}
	}
	return nil
}

// hiddenOnPurpose reports whether the promoted field at index of the
// struct t is hidden from reflect.VisibleFields, and so from the schema,
// by a shallower field of its Go name tagged json:"-": a field written to
// keep it from the model. The derived schema refuses properties it does
// not list, so arguments that reach encoding/json never name it.
func hiddenOnPurpose(t reflect.Type, index []int) bool {
	name := t.FieldByIndex(index).Name
	for _, sf := range reflect.VisibleFields(t) {
		if sf.Name == name && len(sf.Index) < len(index) {
			return sf.Tag.Get("json") == "-"
		}
	}
	return false
}

// schemaRequires reports whether jsonschema-go adds the field sf to
// required: unless it is omitempty or omitzero.
func schemaRequires(sf reflect.StructField) bool {
	_, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
	for o := range strings.SplitSeq(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			return false
		}
	}
	return true
}

// goPath names the field at index of the struct t as Go code reaches it
// through embedded fields: Inner.Name.
func goPath(t reflect.Type, index []int) string {
	names := make([]string, len(index))
	for i := range index {
		names[i] = t.FieldByIndex(index[:i+1]).Name
	}
	return strings.Join(names, ".")
}

// schemaName is the property jsonschema-go makes of the visible field
// sf, if any.
func schemaName(sf reflect.StructField) (string, bool) {
	if sf.Anonymous || !sf.IsExported() {
		return "", false
	}
	name, _, found := strings.Cut(sf.Tag.Get("json"), ",")
	if name == "-" && !found {
		return "", false
	}
	if name == "" {
		name = sf.Name
	}
	return name, true
}

// isUnexportedStructPointer reports whether the field at index is
// promoted through an embedded pointer to an unexported struct, which
// encoding/json fails to allocate.
func isUnexportedStructPointer(t reflect.Type, index []int) bool {
	for _, i := range index[:len(index)-1] {
		sf := t.Field(i)
		if sf.Type.Kind() == reflect.Pointer && !sf.IsExported() {
			return true
		}
		t = sf.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
	return false
}

// jsonField is a field as encoding/json finds it: its json name, and
// its index from the outer struct.
type jsonField struct {
	name   string
	index  []int
	tagged bool
}

// decodedFields is the index of the field encoding/json decodes for each
// json name of the struct t, by the rules of its typeFields.
func decodedFields(t reflect.Type) map[string][]int {
	var fields []jsonField
	type level struct {
		t     reflect.Type
		index []int
	}
	next := []level{{t: t}}
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current := next
		next = nil
		count := map[reflect.Type]int{}
		for _, l := range current {
			count[l.t]++
		}
		for _, l := range current {
			if visited[l.t] {
				continue
			}
			visited[l.t] = true
			for i := range l.t.NumField() {
				sf := l.t.Field(i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if sf.Anonymous && !sf.IsExported() && ft.Kind() != reflect.Struct || !sf.Anonymous && !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clone(l.index), i)
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					f := jsonField{name: name, index: index, tagged: name != ""}
					if name == "" {
						f.name = sf.Name
					}
					fields = append(fields, f)
					if count[l.t] > 1 {
						// The same struct twice at one depth: its fields
						// annihilate each other.
						fields = append(fields, f)
					}
					continue
				}
				next = append(next, level{t: ft, index: index})
			}
		}
	}
	out := map[string][]int{}
	for name, group := range groupByName(fields) {
		slices.SortStableFunc(group, func(a, b jsonField) int {
			if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
				return c
			}
			if a.tagged != b.tagged {
				if a.tagged {
					return -1
				}
				return 1
			}
			return slices.Compare(a.index, b.index)
		})
		if len(group) > 1 && len(group[0].index) == len(group[1].index) && group[0].tagged == group[1].tagged {
			continue
		}
		out[name] = group[0].index
	}
	return out
}

func groupByName(fields []jsonField) map[string][]jsonField {
	by := map[string][]jsonField{}
	for _, f := range fields {
		by[f.name] = append(by[f.name], f)
	}
	return by
}

// validTagName is encoding/json's test of a json tag's name; a name it
// refuses falls back to the field's.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
