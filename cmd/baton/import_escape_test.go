package main

import (
	"os"
	"strings"
	"testing"
)

// TestImportEscapesSessionIDs: the ids 'baton import' prints come from
// the file it reads, so a crafted export must not reach the terminal
// with raw escape sequences (clearing the screen, reordering the line).
func TestImportEscapesSessionIDs(t *testing.T) {
	isolate(t)
	raw, err := os.ReadFile("../../testdata/sessions/plain.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	evil := strings.ReplaceAll(string(raw), `"session":"cosmic-walrus-62f4"`, `"session":"evil\u001b[2Jid\u202e"`)
	if evil == string(raw) {
		t.Fatal("the fixture no longer names cosmic-walrus-62f4")
	}
	code, stdout, stderr := cli(t, evil, "import", "--store", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if want := "imported evil\\x1b[2Jid\\u202e\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
}
