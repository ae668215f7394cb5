package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile holds what a terminal acts on but encoding/json leaves raw: a
// C1 CSI that clears the screen, DEL, a bidi override and isolate.
const hostile = "a\u009b2Jb\u007f\u202eevil\u2066x\u2069"

// TestJSONOutputEscapesTerminalControls: every --json output escapes the
// characters the human output escapes, as \uXXXX, so a model or a tool
// cannot drive the terminal of whoever reads a script's output; the JSON
// still decodes to the same text.
func TestJSONOutputEscapesTerminalControls(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies": [{"text": "`+jsonEscape(t, hostile)+`"}]}`)
	code, runOut, stderr := cli(t, "", "run", "--json", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "say "+hostile)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, list, stderr := cli(t, "", "sessions", "--json", "--store", dir)
	var row struct{ ID string }
	if err := json.Unmarshal([]byte(list), &row); code != 0 || err != nil {
		t.Fatalf("sessions: exit %d (%v): %s%s", code, err, list, stderr)
	}
	outputs := map[string]string{"run --json": runOut, "sessions --json": list}
	for _, args := range [][]string{{"log", "--json", row.ID}, {"replay", "--json", row.ID}} {
		code, out, stderr := cli(t, "", append(args, "--store", dir)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		outputs[args[0]+" --json"] = out
	}
	for name, out := range outputs {
		t.Run(name, func(t *testing.T) {
			for i, r := range out {
				if r != '\n' && unsafeRune(r, false) {
					t.Fatalf("raw %U at byte %d of:\n%s", r, i, out)
				}
			}
			for line := range strings.Lines(out) {
				if !json.Valid([]byte(line)) {
					t.Fatalf("not JSON: %s", line)
				}
			}
		})
	}
	if !strings.Contains(runOut, `a\u009b2Jb\u007f\u202eevil\u2066x\u2069`) {
		t.Errorf("run --json does not carry the reply, escaped:\n%s", runOut)
	}
}

// jsonEscape quotes s for a JSON string, without the quotes.
func jsonEscape(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	if err != nil || !utf8.Valid(b) {
		t.Fatal(err)
	}
	return string(b[1 : len(b)-1])
}
