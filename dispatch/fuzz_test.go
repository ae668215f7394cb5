package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzFuncArguments feeds arbitrary argument text to a typed tool: it
// must never panic, must run the function only on arguments that decode
// into its input type, and must explain every refusal.
func FuzzFuncArguments(f *testing.F) {
	for _, seed := range []string{``, `{}`, `{"path":"a"}`, `{"path":"a","limit":3,"tags":["x"],"opt":{"depth":1}}`,
		`{"path":`, `[1]`, `null`, `{"path":1e400}`, `{"path":"a","limit":-129}`, "{\"path\":\"\xff\"}"} {
		f.Add(seed)
	}
	calls := 0
	tool := readTool(f, &calls)
	f.Fuzz(func(t *testing.T, args string) {
		before := calls
		out, err := tool.Call(context.Background(), json.RawMessage(args))
		ran := calls > before
		if !ran {
			if err != nil || !out.IsError || !strings.HasPrefix(out.Content, "invalid arguments: ") {
				t.Fatalf("refusal of %q unexplained: %+v, %v", args, out, err)
			}
			return
		}
		var in readArgs
		if uerr := json.Unmarshal([]byte(args), &in); uerr != nil && strings.TrimSpace(args) != "" {
			t.Fatalf("ran on %q, which does not decode: %v", args, uerr)
		}
	})
}

// FuzzObjectArgs: ObjectArgs takes exactly the arguments that are blank
// or one JSON object, giving back the object, and explains the rest.
func FuzzObjectArgs(f *testing.F) {
	for _, seed := range []string{``, " \n", `{}`, ` {"n":1e400} `, `{"n":`, `{} {}`, `null`, `[1]`, `"s"`, `-0`, `true`, "{\"s\":\"\xff\"}"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		got, err := ObjectArgs(json.RawMessage(args))
		trimmed := strings.TrimSpace(args)
		var ae *ArgumentError
		switch {
		case trimmed == "":
			if err != nil || string(got) != "{}" {
				t.Fatalf("blank %q gave %s, %v", args, got, err)
			}
		case json.Valid([]byte(trimmed)) && trimmed[0] == '{':
			if err != nil || string(got) != trimmed {
				t.Fatalf("object %q gave %s, %v", args, got, err)
			}
		case !errors.As(err, &ae) || !strings.HasPrefix(err.Error(), "invalid arguments: "):
			t.Fatalf("%q gave %s, %v; want an ArgumentError", args, got, err)
		}
	})
}
