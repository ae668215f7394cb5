package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An export of an empty store imports nothing, and says so: in text, a
// line rather than silence, and in JSON an empty list a script can range
// over rather than null.
func TestImportOfNoSessions(t *testing.T) {
	isolate(t)
	empty := writeScript(t, `{"kind":"baton-store","v":1}`+"\n")
	for _, tt := range []struct {
		args   []string
		stdout string
	}{
		{[]string{"import", "--store", t.TempDir(), empty}, "no sessions imported: the input holds none\n"},
		{[]string{"import", "--json", "--store", t.TempDir(), empty}, `{"imported":[]}` + "\n"},
	} {
		code, stdout, stderr := cli(t, "", tt.args...)
		if code != exitOK || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, stderr)
		}
		if diff := cmp.Diff(tt.stdout, stdout); diff != "" {
			t.Errorf("%v: stdout mismatch (-want +got):\n%s", tt.args, diff)
		}
	}
}

// An empty input, such as stdin of a pipe whose export failed, is said to
// be empty, not a corrupt export, and imports nothing.
func TestImportOfAnEmptyInput(t *testing.T) {
	isolate(t)
	empty := writeScript(t, "")
	unmade := filepath.Join(t.TempDir(), "store")
	const want = "baton: import: the input is empty: want what 'baton export' wrote\n"
	for _, args := range [][]string{
		{"import", "--store", unmade, empty},
		{"import", "--json", "--store", t.TempDir()},
		{"import", "--store", t.TempDir(), "-"},
	} {
		code, stdout, stderr := cli(t, "", args...)
		if code != exitFailure || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q", args, code, stdout)
		}
		if diff := cmp.Diff(want, stderr); diff != "" {
			t.Errorf("%v: stderr mismatch (-want +got):\n%s", args, diff)
		}
	}
	if _, err := os.Stat(unmade); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the store folder %s was made, or: %v", unmade, err)
	}
}
