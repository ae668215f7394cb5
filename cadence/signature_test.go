package cadence

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// A call's signature is its name and its arguments compacted, whether or
// not the arguments skip json.Compact for having no white space to drop.
func TestSignatureIsTheCompactedArguments(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := []string{`{`, `}`, `[`, `]`, `"`, `\`, `\"`, ` `, "\t", "\n", `:`, `,`, `"a b"`, `1`, `null`, `é`, "\u2028", `<`, `x`}
		var b strings.Builder
		for range rapid.IntRange(0, 12).Draw(t, "n") {
			b.WriteString(rapid.SampledFrom(parts).Draw(t, "part"))
		}
		args := b.String()
		if rapid.Bool().Draw(t, "valid") {
			args = `{"text":` + strconv.Quote(args) + rapid.SampledFrom([]string{``, ` `, `,"n": 1`}).Draw(t, "more") + `}`
		}
		want := "echo " + args
		var buf bytes.Buffer
		if json.Compact(&buf, []byte(args)) == nil {
			want = "echo " + buf.String()
		}
		if got := signature(contract.ToolCall{Name: "echo", Arguments: args}); got != want {
			t.Fatalf("signature of %q = %q, want %q", args, got, want)
		}
	})
}
