package dispatch

import (
	"context"
	"encoding/json"
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
