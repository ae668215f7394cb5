package cadence

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// validByDecoding is how arguments were checked before plainObject: the
// fast path must never accept what decoding rejects.
func validByDecoding(args string) bool {
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		return false
	}
	_, ok := v.(map[string]any)
	return ok
}

func TestPlainObjectAgreesWithDecoding(t *testing.T) {
	pieces := []string{"{", "}", "[", "]", `"`, `\`, `\"`, ":", ",", " ", "\n", "a", "1", "-", "1e999", "true", "null", `"k"`, `"v"`, "\xff", "é"}
	rapid.Check(t, func(t *rapid.T) {
		var args string
		if rapid.Bool().Draw(t, "random") {
			args = rapid.String().Draw(t, "args")
		} else {
			for _, p := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 20).Draw(t, "pieces") {
				args += p
			}
		}
		if plainObject(args) && !validByDecoding(args) {
			t.Fatalf("plainObject accepts %q, which decoding rejects", args)
		}
		if got, want := validArguments(args) == nil, args == "" || validByDecoding(args); got != want {
			t.Fatalf("validArguments(%q) ok = %v, want %v", args, got, want)
		}
	})
}

func TestPlainObject(t *testing.T) {
	for _, c := range []struct {
		args string
		want bool
	}{
		{`{"text":"hello 42"}`, true},
		{` {"a":{"b":[true,null,"x\"1"]}}`, true},
		{`{"n":1}`, false},
		{`{"n":1e999}`, false},
		{`[]`, false},
		{`{"a":`, false},
		{`"{}"`, false},
	} {
		if got := plainObject(c.args); got != c.want {
			t.Errorf("plainObject(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
