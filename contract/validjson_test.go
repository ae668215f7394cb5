package contract_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

var validJSONCases = []string{
	``, ` `, `{}`, `[]`, `{"text":"turn 3 call 0"}`, ` { "a" : [1, -2.5e+3, true, false, null, {"b": "\u00e9\n"}] } `,
	`{"a":1,}`, `{"a" 1}`, `{a:1}`, `[1,]`, `[,1]`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `-0`, `0.0e0`, `1E9`,
	`"\x"`, `"\u12G4"`, `"\u123"`, "\"a\tb\"", "\"\x7f\xff\"", `"unterminated`, `tru`, `nul`, `true false`,
	`{"a":1}}`, `[[[]]]`, `{"":""}`, "\ufeff{}", `"\/"`, `1 2`, `{"a":{"b":[{"c":null}]}}`,
	strings.Repeat("[", 100) + strings.Repeat("]", 100), strings.Repeat("[", 100) + strings.Repeat("]", 99),
	strings.Repeat(`{"a":`, 70) + `1` + strings.Repeat("}", 70), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

func TestValidJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range validJSONCases {
		if got, want := contract.ValidJSON(s), json.Valid([]byte(s)); got != want {
			t.Errorf("ValidJSON(%.40q) = %v, json.Valid says %v", s, got, want)
		}
	}
}

// JSON-like text, valid or nearly so, built from the grammar's pieces.
func jsonish() *rapid.Generator[string] {
	piece := rapid.SampledFrom([]string{
		`{`, `}`, `[`, `]`, `,`, `:`, ` `, "\n", `"`, `"a"`, `"\n"`, `"\u00e9"`, `"\q"`, "\"\x01\"", `\`,
		`0`, `1`, `-`, `.`, `e`, `E`, `+`, `12.5e-3`, `007`, `true`, `false`, `null`, `nul`, "\xff",
	})
	return rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		for range rapid.IntRange(0, 24).Draw(t, "pieces") {
			b.WriteString(piece.Draw(t, "piece"))
		}
		return b.String()
	})
}

func TestValidJSONAgreesWithEncodingJSONOnJSONishText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(jsonish(), rapid.String()).Draw(t, "s")
		if got, want := contract.ValidJSON(s), json.Valid([]byte(s)); got != want {
			t.Fatalf("ValidJSON(%q) = %v, json.Valid says %v", s, got, want)
		}
	})
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range validJSONCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := contract.ValidJSON(s), json.Valid([]byte(s)); got != want {
			t.Fatalf("ValidJSON(%q) = %v, json.Valid says %v", s, got, want)
		}
	})
}

func BenchmarkValidJSON(b *testing.B) {
	args := `{"text":"turn 3 call 0"}`
	b.Run("ValidJSON", func(b *testing.B) {
		for b.Loop() {
			contract.ValidJSON(args)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			json.Valid([]byte(args))
		}
	})
}
