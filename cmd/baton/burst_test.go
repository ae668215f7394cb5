package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A 30,000-word reply streamed with no delay reaches the terminal whole:
// `baton run` printed 20,904 of 198,889 bytes when its subscription
// dropped deltas under the burst.
func TestRunPrintsABurstWhole(t *testing.T) {
	isolate(t)
	var text strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&text, "w%c%d ", 'a'+i%26, i%10)
	}
	body, err := json.Marshal(map[string]any{"replies": []any{map[string]any{"text": text.String()}}})
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, string(body)), "--store", t.TempDir(), "--workspace", t.TempDir(), "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _, _ := strings.Cut(stdout, "\n── ")
	if want := strings.TrimRight(text.String(), " "); strings.TrimSpace(got) != want {
		t.Fatalf("printed %d bytes of the reply's %d", len(strings.TrimSpace(got)), len(want))
	}
}
