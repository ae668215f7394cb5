package builtin

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// innocentSiblings remove, wipe, link or give away one file, which a
// user may well answer "always" for.
var innocentSiblings = []string{
	"unlink a.txt", "shred -u a.txt", "link a.txt b.txt", "chown me a.txt", "chgrp staff a.txt",
}

// TestShellKeysNameFilesCoreutilsSiblingsChange: unlink and shred remove
// or wipe each file they are given, link makes its second operand lead
// to its first, and chown and chgrp give away each file after the owner
// (or every one, given --reference), as rm, ln and chmod do, so they are
// keyed by those files: approving unlink a.txt does not approve unlink
// ~/.bashrc, nor link a.txt b.txt a link from a.txt to ~/.bashrc.
func TestShellKeysNameFilesCoreutilsSiblingsChange(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"unlink ~/.bashrc", []string{">~/.bashrc", "unlink"}},
		{"unlink -- -x", []string{">-x", "unlink"}},
		{"shred -u ~/.ssh/id_rsa", []string{">~/.ssh/id_rsa", "shred"}},
		{"shred -n 3 -zu ~/.bashrc", []string{">~/.bashrc", "shred"}},
		{"shred --iterations=3 --remove=wipe ~/.bashrc", []string{">~/.bashrc", "shred"}},
		{"shred --random-source /dev/urandom -s 1K ~/.bashrc", []string{">~/.bashrc", "shred"}},
		{"link ~/.bashrc a.txt", []string{">a.txt", ">~/.bashrc", "link"}},
		{"link ~/.bashrc a.txt; truncate -s 0 a.txt", []string{">a.txt", ">~/.bashrc", "link", "truncate"}},
		{"chown me ~/.bashrc", []string{">~/.bashrc", "chown"}},
		{"chown -R me:me ~/.ssh", []string{">~/.ssh", "chown"}},
		{"chown -h --from=me you ~/.bashrc", []string{">~/.bashrc", "chown"}},
		{"chown --reference=a.txt ~/.bashrc", []string{">~/.bashrc", "chown"}},
		{"chgrp -R staff ~/.ssh", []string{">~/.ssh", "chgrp"}},
		{"sudo chown -R me /etc", []string{">/etc", "chown", "sudo"}},
		{"chown -w me f", nil},
		{"chown \"$U\" f", nil},
		{"unlink ~/.b*", nil},
		{"shred -b f", nil},
		{"ls | xargs shred -u", nil},
		{"find . -exec unlink {} \\;", nil},
	}
	innocent := slices.Concat(innocentChanges, innocentSiblings)
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocent, got, err)
		})
	}
}

// siblingAttacks change path under bash; their keys must name it.
var siblingAttacks = []struct{ setup, line, path string }{
	{": > pwned", "unlink pwned", "pwned"},
	{"printf abc > pwned", "shred -n 1 pwned", "pwned"},
	{"printf abc > victim", "link victim a.txt; truncate -s 0 a.txt", "victim"},
}

// TestSiblingAttacksChangeTheKeyedFileUnderBash keeps siblingAttacks
// honest: under bash each line changes its path, and its keys name it.
func TestSiblingAttacksChangeTheKeyedFileUnderBash(t *testing.T) {
	bash := bashPath(t)
	for _, tt := range siblingAttacks {
		t.Run(tt.line, func(t *testing.T) {
			keys, err := keysOf(tt.line)
			if err != nil || !slices.Contains(keys, ">"+tt.path) {
				t.Errorf("keys %q (%v) do not name %s", keys, err, tt.path)
			}
			dir := t.TempDir()
			run := func(line string) {
				cmd := exec.Command(bash, "-c", line)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v: %s", line, err, out)
				}
			}
			run(tt.setup)
			before := fileState(t, filepath.Join(dir, tt.path))
			run(tt.line)
			if after := fileState(t, filepath.Join(dir, tt.path)); after == before {
				t.Errorf("bash left %s as it was: %s", tt.path, after)
			}
		})
	}
}
