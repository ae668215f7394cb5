package dispatch

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// encodable says why encoding/json can never encode a value of t: a
// channel, a function, a complex number or a map whose keys are neither
// strings, integers nor text, anywhere encoding/json looks (exported
// fields it does not skip, elements). A type that marshals itself passes,
// as does an interface, whose values are judged as they come.
func encodable(t reflect.Type, seen map[reflect.Type]bool) error {
	if seen[t] || marshals(t, jsonMarshaler) || marshals(t, textMarshaler) {
		return nil
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return fmt.Errorf("%s cannot be encoded as JSON", t)
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return encodable(t.Elem(), seen)
	case reflect.Map:
		if !jsonKey(t.Key()) {
			return fmt.Errorf("%s cannot be encoded as JSON: its keys are neither strings, integers nor text", t)
		}
		return encodable(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			sf := t.Field(i)
			name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if (name == "-" && opts == "") || (!sf.IsExported() && !sf.Anonymous) {
				continue
			}
			if err := encodable(sf.Type, seen); err != nil {
				return fmt.Errorf("field %s.%s: %w", t, sf.Name, err)
			}
		}
	}
	return nil
}

// marshals says t, or a pointer to it, has iface's method.
func marshals(t, iface reflect.Type) bool {
	return t.Implements(iface) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(iface))
}

// jsonKey says encoding/json takes t as a map's key.
func jsonKey(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return marshals(t, textMarshaler)
}
