package turn_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/batonrt/baton/turn"
)

func TestRepairArguments(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{`{"city":"Paris"}`, `{"city":"Paris"}`, true},
		{"  {\"city\": \"Paris\"}\n", `{"city": "Paris"}`, true},
		{``, `{}`, true},
		{`   `, `{}`, true},
		{`{"city": "Paris"`, `{"city":"Paris"}`, true},
		{`{"city": "Par`, `{"city":"Par"}`, true},
		{`{"a": [1, 2,`, `{"a":[1,2]}`, true},
		{`{"a": 1,}`, `{"a":1}`, true},
		{`{"a": [1, 2,], }`, `{"a":[1,2]}`, true},
		{`{'city': 'Paris', 'q': 'it\'s "x"'}`, `{"city":"Paris","q":"it's \"x\""}`, true},
		{`{city: "Paris"}`, `{"city":"Paris"}`, true},
		{`{"ok": True, "no": False, "n": None}`, `{"ok":true,"no":false,"n":null}`, true},
		{"```json\n{\"city\": \"Paris\"}\n```", `{"city": "Paris"}`, true},
		{"```\n{\"city\": \"Paris\",}\n```", `{"city":"Paris"}`, true},
		{`"{\"city\":\"Paris\"}"`, `{"city":"Paris"}`, true},
		{`{"a":`, `{"a":null}`, true},
		{`{"s": "\u00e9\n"}`, `{"s": "\u00e9\n"}`, true},
		{`{'s': '\u00e9'`, `{"s":"é"}`, true},
		{`not json`, ``, false},
		{`[1, 2]`, ``, false},
		{`42`, ``, false},
		{`{"a": ]`, ``, false},
		{`{"a" "b"}`, ``, false},
		{`{"a": 1}}`, ``, false},
	}
	for _, tt := range tests {
		got, ok := turn.RepairArguments(tt.in)
		if diff := cmp.Diff(struct {
			S  string
			OK bool
		}{tt.want, tt.wantOK}, struct {
			S  string
			OK bool
		}{got, ok}); diff != "" {
			t.Errorf("RepairArguments(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// checkRepair is the contract of RepairArguments on any input: ok means a
// JSON object, and a valid object comes back meaning the same.
func checkRepair(t interface{ Fatalf(string, ...any) }, in string) {
	got, ok := turn.RepairArguments(in)
	if !ok {
		if got != "" {
			t.Fatalf("RepairArguments(%q) = %q with ok=false", in, got)
		}
		return
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(got), &obj); err != nil {
		t.Fatalf("RepairArguments(%q) = %q, not an object: %v", in, got, err)
	}
	var orig map[string]any
	if json.Unmarshal([]byte(in), &orig) == nil && orig != nil && !cmp.Equal(orig, obj) {
		t.Fatalf("RepairArguments(%q) = %q changed a valid object", in, got)
	}
}

func TestRepairArgumentsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		obj := rapid.MapOf(rapid.StringMatching(`[a-z]{1,5}`), rapid.OneOf(
			rapid.Just[any](nil), rapid.Map(rapid.Bool(), func(b bool) any { return b }),
			rapid.Map(rapid.IntRange(-99, 99), func(i int) any { return float64(i) }),
			rapid.Map(rapid.String(), func(s string) any { return s }),
		)).Draw(t, "obj")
		b, _ := json.Marshal(obj)
		checkRepair(t, string(b))
		// A truncated object still repairs to an object or is refused.
		cut := rapid.IntRange(0, len(b)).Draw(t, "cut")
		checkRepair(t, string(b[:cut]))
		got, ok := turn.RepairArguments(string(b))
		if !ok || !json.Valid([]byte(got)) {
			t.Fatalf("valid object %s refused", b)
		}
	})
}

func FuzzRepairArguments(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"a":1`, `{'a': 'b',}`, "```json\n{\"a\":[1,\n```", `{a: True}`, `"{\"a\":1}"`, `{"s":"\u00`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkRepair(t, s) })
}
