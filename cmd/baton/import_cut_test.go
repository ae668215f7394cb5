package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An export cut short at a line boundary, as a copy interrupted or a disk
// filled leaves it, is refused in one line naming what is wrong, and
// imports nothing: not even the sessions that made it whole.
func TestImportOfCutExport(t *testing.T) {
	isolate(t)
	src := t.TempDir()
	if code, _, stderr := cli(t, "", "import", "--store", src, filepath.Join(sessionsDir, "allow-running.jsonl")); code != exitOK {
		t.Fatalf("import: %s", stderr)
	}
	code, export, stderr := cli(t, "", "export", "--store", src)
	if code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	lines := strings.SplitAfter(export, "\n")
	lines = lines[:len(lines)-1]
	firstHead := 0
	for i, l := range lines {
		if strings.HasPrefix(l, `{"kind":"head"`) {
			firstHead = i
			break
		}
	}
	for _, keep := range []int{1, firstHead + 1, len(lines) - 1} {
		t.Run(fmt.Sprint(keep, " lines"), func(t *testing.T) {
			cut := writeScript(t, strings.Join(lines[:keep], ""))
			dir := t.TempDir()
			code, stdout, stderr := cli(t, "", "import", "--store", dir, cut)
			want := fmt.Sprintf("baton: store: import: corrupt object: export cut short: it ends after line %d without the end line a version 2 export ends with\n", keep)
			if code != exitFailure || stdout != "" {
				t.Errorf("exit %d, want %d; stdout %q", code, exitFailure, stdout)
			}
			if diff := cmp.Diff(want, stderr); diff != "" {
				t.Errorf("stderr mismatch (-want +got):\n%s", diff)
			}
			if _, out, _ := cli(t, "", "sessions", "--json", "--store", dir); strings.Contains(out, `"id"`) {
				t.Errorf("a refused import left sessions behind: %s", out)
			}
		})
	}
}
