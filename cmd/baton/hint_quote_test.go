package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The commands demo and fork suggest, pasted into a shell, reach baton
// with the --store they were given, though it holds what a shell acts on
// (a postgres URL's ? and &, a space).
func TestHintsQuoteTheStoreForTheShell(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no sh under CI: the hints are pasted into it")
		}
		t.Skip("needs sh to paste the hints into")
	}
	isolate(t)
	dir := filepath.Join(t.TempDir(), "st?search_path=a&b c")
	code, stdout, stderr := cli(t, "", "demo", "--store", dir)
	if code != 0 {
		t.Fatalf("demo: exit %d %s", code, stderr)
	}
	m := sessionLine.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no readable session id in:\n%s", stdout)
	}
	id := m[1]
	code, forked, stderr := cli(t, "", "fork", "--store", dir, "--as", "forked-1", id, "2")
	if code != 0 {
		t.Fatalf("fork: exit %d %s", code, stderr)
	}
	var hints []string
	for _, line := range strings.Split(stdout+forked, "\n") {
		if strings.HasPrefix(line, "  baton ") {
			hints = append(hints, strings.TrimSuffix(strings.TrimPrefix(line, "  baton "), ` "..."`))
		}
	}
	if len(hints) != 5 {
		t.Fatalf("want 5 hints (3 of demo, 2 of fork), got %q", hints)
	}
	for _, hint := range hints {
		out, err := exec.Command("sh", "-c", `printf '%s\n' `+hint).Output()
		if err != nil {
			t.Errorf("hint %q breaks in the shell: %v", hint, err)
			continue
		}
		words := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		at := -1
		for i, w := range words {
			if w == "--store" {
				at = i
			}
		}
		if at < 0 || at+1 >= len(words) {
			t.Errorf("hint %q: the shell reads no --store value in %q", hint, words)
			continue
		}
		if diff := cmp.Diff(dir, words[at+1]); diff != "" {
			t.Errorf("hint %q: the shell reads --store otherwise (-want +got):\n%s", hint, diff)
		}
	}
}
