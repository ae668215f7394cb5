package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

type depthOpt struct {
	Depth int `json:"depth" jsonschema:"how many levels to descend"`
}

type readArgs struct {
	Path  string    `json:"path" jsonschema:"the file to read"`
	Limit int8      `json:"limit,omitempty" jsonschema:"lines to read at most"`
	Tags  []string  `json:"tags,omitempty"`
	Opt   *depthOpt `json:"opt,omitempty"`
}

type readResult struct {
	Path  string `json:"path"`
	Lines int    `json:"lines"`
}

func readTool(t testing.TB, calls *int) Tool {
	t.Helper()
	tl, err := Func("read_file", "Reads a file.", func(_ context.Context, in readArgs) (readResult, error) {
		*calls++
		if in.Path == "missing" {
			return readResult{}, errors.New("no such file")
		}
		return readResult{Path: in.Path, Lines: int(in.Limit)}, nil
	}, Idempotent(), Timeout(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestFuncArguments checks every refusal names its field and that the
// function runs only on valid arguments. The outcomes are a golden file.
func TestFuncArguments(t *testing.T) {
	cases := []struct{ name, args string }{
		{"valid", `{"path":"a.txt","limit":3}`},
		{"valid nested", `{"path":"a.txt","opt":{"depth":2},"tags":["x"]}`},
		{"function error", `{"path":"missing"}`},
		{"empty means no arguments", ``},
		{"malformed JSON", `{"path":`},
		{"not an object", `["a.txt"]`},
		{"null", `null`},
		{"missing required", `{"limit":3}`},
		{"wrong type", `{"path":3}`},
		{"null field", `{"path":null}`},
		{"nested null", `{"path":"a","opt":{"depth":null}}`},
		{"not an integer", `{"path":"a","limit":1.5}`},
		{"out of range for int8", `{"path":"a","limit":300}`},
		{"unknown field", `{"path":"a","mode":"rw"}`},
		{"nested wrong type", `{"path":"a","opt":{"depth":"deep"}}`},
		{"nested missing", `{"path":"a","opt":{}}`},
		{"array item", `{"path":"a","tags":["ok",1]}`},
	}
	var b strings.Builder
	calls := 0
	tool := readTool(t, &calls)
	for _, c := range cases {
		before := calls
		out, err := tool.Call(context.Background(), json.RawMessage(c.args))
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		fmt.Fprintf(&b, "== %s\nargs: %s\nran: %v\noutcome: %+v\nerror: %s\n", c.name, c.args, calls > before, out, errText)
	}
	golden(t, "func_arguments.golden", b.String())
}

func TestFuncDescriptor(t *testing.T) {
	calls := 0
	d := readTool(t, &calls).Descriptor()
	schema := d.InputSchema
	d.InputSchema = nil
	want := contract.ToolDescriptor{Name: "read_file", Description: "Reads a file.", Idempotent: true, Timeout: 3 * time.Second}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	var pretty strings.Builder
	var v any
	if err := json.Unmarshal(schema, &v); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&pretty)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	golden(t, "read_file.schema.golden", pretty.String())
}

func TestFuncOutput(t *testing.T) {
	str := MustFunc("echo", "", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (string, error) {
		return in.S, nil
	})
	jsn := MustFunc("count", "", func(_ context.Context, in map[string]int) ([]int, error) {
		return []int{len(in)}, nil
	})
	// An interface passes when the tool is defined; its value is judged
	// when it comes.
	bad := MustFunc("bad", "", func(context.Context, struct{}) (any, error) { return func() {}, nil })
	whole := MustFunc("whole", "", func(context.Context, struct{}) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{Content: "cut", IsError: true, Truncated: true}, nil
	})
	tests := []struct {
		name    string
		tool    Tool
		args    string
		want    contract.ToolOutcome
		wantErr string
	}{
		{"string as is", str, `{"s":"a \"quoted\" text"}`, contract.ToolOutcome{Content: `a "quoted" text`}, ""},
		{"JSON", jsn, `{"a":1,"b":2}`, contract.ToolOutcome{Content: `[2]`}, ""},
		{"map value type", jsn, `{"a":"x"}`, contract.ToolOutcome{Content: `invalid arguments: field "{}": x has type "string", want "integer"`, IsError: true}, ""},
		{"an outcome as is", whole, `{}`, contract.ToolOutcome{Content: "cut", IsError: true, Truncated: true}, ""},
		{"unencodable", bad, `{}`, contract.ToolOutcome{}, `dispatch: tool "bad": encode result: json: unsupported type: func()`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.tool.Call(context.Background(), json.RawMessage(tt.args))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr {
				t.Errorf("error = %q, want %q", gotErr, tt.wantErr)
			}
		})
	}
}

func TestFuncRefusesBadDefinitions(t *testing.T) {
	ok := func(context.Context, struct{}) (string, error) { return "", nil }
	tests := []struct {
		name string
		make func() (Tool, error)
	}{
		{"empty name", func() (Tool, error) { return Func("", "", ok) }},
		{"bad name", func() (Tool, error) { return Func("read file", "", ok) }},
		{"long name", func() (Tool, error) { return Func(strings.Repeat("a", 65), "", ok) }},
		{"nil function", func() (Tool, error) { return Func[struct{}, string]("t", "", nil) }},
		{"negative timeout", func() (Tool, error) { return Func("t", "", ok, Timeout(-time.Second)) }},
		{"scalar input", func() (Tool, error) {
			return Func("t", "", func(context.Context, string) (string, error) { return "", nil })
		}},
		{"channel input", func() (Tool, error) {
			return Func("t", "", func(context.Context, struct{ C chan int }) (string, error) { return "", nil })
		}},
		{"raw nil function", func() (Tool, error) { return NewTool(contract.ToolDescriptor{Name: "t"}, nil) }},
		{"raw bad schema", func() (Tool, error) {
			return NewTool(contract.ToolDescriptor{Name: "t", InputSchema: json.RawMessage("{")}, text(""))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := tt.make()
			if !errors.Is(err, ErrInvalidTool) || tl != nil {
				t.Errorf("got (%v, %v), want ErrInvalidTool", tl, err)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("MustFunc did not panic on a bad name")
		}
	}()
	MustFunc("bad name", "", ok)
}

func TestFuncOptions(t *testing.T) {
	tl := MustFunc("t", "d", func(context.Context, struct{}) (string, error) { return "", nil },
		NeedsApproval(), Sequential(), nil)
	d := tl.Descriptor()
	d.InputSchema = nil
	want := contract.ToolDescriptor{Name: "t", Description: "d", NeedsApproval: true, Sequential: true}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}
