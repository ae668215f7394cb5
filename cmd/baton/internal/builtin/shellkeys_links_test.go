package builtin

import (
	"os/exec"
	"slices"
	"testing"
)

// TestShellKeysNameTheFileALinkLeadsTo: ln, cp -s and cp -l make a name
// lead to another file, which a later write to that name changes, so
// they are keyed by that file too, as written: approving ln -s a.txt
// b.txt, touch a.txt and truncate -s 0 a.txt must not let a line link
// a.txt to ~/.bashrc and empty it. A relative symbolic link's target is
// read from the link's folder (ln -r makes it so from the current one).
func TestShellKeysNameTheFileALinkLeadsTo(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"ln -sfT ~/.bashrc a.txt", []string{">a.txt", ">~/.bashrc", "ln"}},
		{"ln -sfT ~/.bashrc a.txt; truncate -s 0 a.txt", []string{">a.txt", ">~/.bashrc", "ln", "truncate"}},
		{"ln -sfT ~/.ssh/id_rsa a.txt; chmod 644 a.txt", []string{">a.txt", ">~/.ssh/id_rsa", "chmod", "ln"}},
		{"ln -sfT ~/.bashrc b.txt; cp a.txt b.txt", []string{">b.txt", ">b.txt/a.txt", ">~/.bashrc", "cp", "ln"}},
		{"ln -fT ~/.bashrc a.txt", []string{">a.txt", ">~/.bashrc", "ln"}},
		{"ln -s ~/x/a.txt", []string{">a.txt", ">~/x/a.txt", "ln"}},
		{"ln -sft . ~/x/a.txt", []string{">a.txt", ">~/x/a.txt", "ln"}},
		{"ln -s /etc/passwd/../a.txt .", []string{">/etc/passwd/../a.txt", ">a.txt", "ln"}},
		{"ln -s ../victim d/a.txt", []string{">d/../victim", ">d/a.txt", ">d/a.txt/../victim", ">d/a.txt/victim", "ln"}},
		{"ln -sr ../victim d/a.txt", []string{">../victim", ">d/a.txt", ">d/a.txt/victim", "ln"}},
		{"ln -st d x", []string{">d/x", "ln"}},
		{"cp -sT ~/.bashrc a.txt", []string{">a.txt", ">~/.bashrc", "cp"}},
		{"cp --symbolic-link -T ~/.bashrc b.txt", []string{">b.txt", ">~/.bashrc", "cp"}},
		{"cp -lT ~/.bashrc b.txt", []string{">b.txt", ">~/.bashrc", "cp"}},
		{"cp --link -T ~/.bashrc b.txt", []string{">b.txt", ">~/.bashrc", "cp"}},
		{"cp -rs ~/.ssh dst/", []string{">dst", ">dst/.ssh", ">~/.ssh", "cp"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocentChanges, got, err)
		})
	}
	got, err := keysOf("ln a.txt b.txt")
	checkKeys(t, []string{">a.txt", ">b.txt", ">b.txt/a.txt", "ln"}, got, err)
}

// linkAttacks link a file the line names once to another and then
// change it through the link; victim is the file changed, whose key
// each line must have.
var linkAttacks = []struct{ setup, line string }{
	{"printf abc > victim", "ln -sfT victim a.txt; truncate -s 0 a.txt"},
	{"printf abc > victim", "ln -fT victim a.txt; chmod 600 a.txt"},
	{"printf abc > victim", "cp -sT victim a.txt; truncate -s 0 a.txt"},
	{"printf abc > victim", "cp -lT victim a.txt; truncate -s 0 a.txt"},
	{"printf abc > victim", "cp --link victim a.txt; truncate -s 1 a.txt"},
}

// TestLinkAttacksChangeTheLinkedFileUnderBash keeps linkAttacks honest:
// under bash each line changes victim, and its keys name it.
func TestLinkAttacksChangeTheLinkedFileUnderBash(t *testing.T) {
	bash := bashPath(t)
	for _, tt := range linkAttacks {
		t.Run(tt.line, func(t *testing.T) {
			keys, err := keysOf(tt.line)
			if err != nil || !slices.Contains(keys, ">victim") {
				t.Errorf("keys %q (%v) do not name victim", keys, err)
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
			before := fileState(t, dir+"/victim")
			run(tt.line)
			if after := fileState(t, dir+"/victim"); after == before {
				t.Errorf("bash left victim as it was: %s", after)
			}
		})
	}
}
