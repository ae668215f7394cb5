package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunOutputSchema: a run under --output-schema sends a bad answer
// back with the reason and ends on the answer that matches; one that
// never matches fails the run with kind output.
func TestRunOutputSchema(t *testing.T) {
	isolate(t)
	schema := filepath.Join(t.TempDir(), "forecast.json")
	if err := os.WriteFile(schema, []byte(`{"type":"object","properties":{"city":{"type":"string"},"temp_c":{"type":"number"}},"required":["city","temp_c"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"replies": [
	  {"text": "Cold, probably."},
	  {"text": "{\"city\": \"Oslo\", \"temp_c\": -3}"}
	]}`)
	dir := t.TempDir()
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "--output-schema", schema, "weather?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `{"city": "Oslo", "temp_c": -3}`) {
		t.Errorf("transcript lacks the answer:\n%s", stdout)
	}
	_, log, _ := cli(t, "", "log", "--store", dir, strings.Fields(stderr)[1])
	for _, want := range []string{"Cold, probably.", `schema: Your answer does not match the required JSON schema "forecast"`, `{"city": "Oslo", "temp_c": -3}`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	never := writeScript(t, `{"replies": [{"text": "no"}, {"text": "no"}, {"text": "still no"}]}`)
	code, stdout, _ = cli(t, "", "run", "--provider", "scripted", "--script", never, "--store", t.TempDir(), "--workspace", t.TempDir(), "--output-schema", schema, "weather?")
	if code != 1 || !strings.Contains(stdout, `final answer does not match the output schema "forecast"`) {
		t.Errorf("exit %d: %s", code, stdout)
	}
}
