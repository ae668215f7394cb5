package dispatch_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/dispatch"
)

type noArgs struct{}

type withChan struct {
	Done chan struct{}
}

type nested struct {
	Items []struct {
		Name string
		Run  func()
	}
}

type hiddenChan struct {
	Name string
	done chan struct{}
	Skip chan int `json:"-"`
}

type ownJSON struct{ c chan int }

func (ownJSON) MarshalJSON() ([]byte, error) { return []byte(`"own"`), nil }

// TestFuncRefusesAnOutputJSONCannotEncode: a tool whose output type
// encoding/json can never encode (a channel, a function, a complex
// number, a map keyed by a struct, anywhere inside it) is refused when it
// is defined, naming the field, rather than failing every call it is
// given. Types that encode, unexported and skipped fields, and types that
// marshal themselves pass.
func TestFuncRefusesAnOutputJSONCannotEncode(t *testing.T) {
	refuse := func(name string, err error, says string) {
		t.Helper()
		if !errors.Is(err, dispatch.ErrInvalidTool) || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: err %v, want ErrInvalidTool naming %q", name, err, says)
		}
	}
	_, err := dispatch.Func("a", "d", func(context.Context, noArgs) (withChan, error) { return withChan{}, nil })
	refuse("a struct with a channel", err, "Done")
	_, err = dispatch.Func("b", "d", func(context.Context, noArgs) (nested, error) { return nested{}, nil })
	refuse("a func in a slice of structs", err, "Run")
	_, err = dispatch.Func("c", "d", func(context.Context, noArgs) (complex128, error) { return 0, nil })
	refuse("a complex number", err, "complex128")
	_, err = dispatch.Func("d", "d", func(context.Context, noArgs) (map[struct{ A int }]string, error) { return nil, nil })
	refuse("a map keyed by a struct", err, "map")
	for name, ok := range map[string]func() error{
		"unexported and skipped fields": func() error {
			_, err := dispatch.Func("e", "d", func(context.Context, noArgs) (hiddenChan, error) {
				return hiddenChan{Name: "n", done: make(chan struct{})}, nil
			})
			return err
		},
		"a type that marshals itself": func() error {
			_, err := dispatch.Func("f", "d", func(context.Context, noArgs) (ownJSON, error) { return ownJSON{c: make(chan int)}, nil })
			return err
		},
		"any, times, maps keyed by ints": func() error {
			_, err := dispatch.Func("g", "d", func(context.Context, noArgs) (struct {
				V  any
				At time.Time
				M  map[int]string
			}, error) {
				return struct {
					V  any
					At time.Time
					M  map[int]string
				}{}, nil
			})
			return err
		},
	} {
		if err := ok(); err != nil {
			t.Errorf("%s: %v, want the tool defined", name, err)
		}
	}
}
