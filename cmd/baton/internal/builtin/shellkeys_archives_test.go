package builtin

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// innocentArchives are lines that archive, copy, split or make a file
// or folder, which a user may well answer "always" for; the lines of
// TestShellKeysNameFilesArchivesAndFoldersChange must not be covered
// by their keys.
var innocentArchives = []string{
	"tar xzf a.tgz", "tar -czf a.tgz d", "tar tf a.tgz", "rsync -a src/ dst/", "cp -r s dst/",
	"mv s dst/", "split a.txt out_", "mkdir build", "rmdir build", "mkfifo p", "mknod p p",
	"setfacl -m u:x:r a.txt", "ls | xargs -R 1 echo",
}

// TestShellKeysNameFilesArchivesAndFoldersChange: tar extracting writes
// the files its archive names, so it has no keys (nil); creating or
// appending writes its archive, rsync its destination, cp -r s dst/ and
// mv s dst/ make dst, mkdir, rmdir, mkfifo, mknod and setfacl each file
// they are given, so each is keyed as a redirection to it is. split
// writes files its line names only in part: no keys. BSD's xargs -R
// takes a value, which is no command.
func TestShellKeysNameFilesArchivesAndFoldersChange(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"tar xzf a.tgz -C ~", nil},
		{"tar -xzf a.tgz", nil},
		{"tar -C ~ -xf a.tar", nil},
		{"tar --extract --file=a.tgz", nil},
		{"tar --get -f a.tar", nil},
		{"tar --ext -f a.tar", nil},
		{"tar -x -f a.tar --directory=/", nil},
		{"tar -tf a.tar -x", nil},
		{"tar -I ./x -xf a.tar -C ~", []string{"tar -I ./x -xf a.tar -C '~'"}},
		{"tar -czf ~/.bashrc d", []string{">~/.bashrc", "tar"}},
		{"tar czf ~/.bashrc d", []string{">~/.bashrc", "tar"}},
		{"tar cfz ~/.bashrc d", []string{">~/.bashrc", "tar"}},
		{"tar --create --file ~/.bashrc d", []string{">~/.bashrc", "tar"}},
		{"tar --create --file=~/.bashrc d", []string{">./~/.bashrc", "tar"}},
		{"tar -rf ~/.bashrc x", []string{">~/.bashrc", "tar"}},
		{"tar -uvf ~/a.tar x", []string{">~/a.tar", "tar"}},
		{"tar -Af ~/a.tar b.tar", []string{">~/a.tar", "tar"}},
		{"tar --delete -f ~/a.tar m", []string{">~/a.tar", "tar"}},
		{"tar -cf a.tar -g ~/.snap d", []string{">a.tar", ">~/.snap", "tar"}},
		{"tar -tf a.tar --index-file ~/.bashrc", []string{">~/.bashrc", "tar"}},
		{"tar -cf a.tar --remove-files ~", nil},
		{"tar -cf a.tar -T list", nil},
		{"tar -c d", nil},
		{"tar -cf h:a.tar d", nil},
		{"tar -cf a.tar -f b.tar d", nil},
		{"tar -cf \"$A\" d", nil},
		{"tar -cf a.tar --bogus d", nil},
		{"tar -cxf a.tar d", nil},
		{"tar -czf ~/a.tgz --exclude='*.o' d", []string{">~/a.tgz", "tar"}},
		{"tar -cf a.tar *", nil},
		{"tar -cf* d", nil},
		{"tar -cf a.tar {d,--remove-files}", nil},
		{"find . -name '*.go' | xargs tar -cf a.tar", nil},
		{"rsync -a src/ ~/", []string{">~", "rsync"}},
		{"rsync -a src/ ~/.ssh/", []string{">~/.ssh", "rsync"}},
		{"rsync -avz --delete src/ /", []string{">/", "rsync"}},
		{"rsync x ~/.bashrc", []string{">~/.bashrc", "rsync"}},
		{"rsync -a src/ out/ --exclude .git", []string{">out", "rsync"}},
		{"rsync -a src/ h:~/", nil},
		{"rsync -a src/ rsync://h/m/", nil},
		{"rsync -a --files-from=l / dst/", nil},
		{"rsync -a --backup-dir=~ src/ dst/", nil},
		{"rsync -ab src/ dst/", nil},
		{"rsync -a --link-dest=~ src/ dst/", nil},
		{"rsync -a src/ dst/ --remove-source-files", nil},
		{"rsync -a src/ \"$D\"", nil},
		{"rsync -a --bogus src/ dst/", nil},
		{"rsync --daemon", nil},
		{"rsync -a * out/", nil},
		{"rsync -a --exclude='*.o' src/ out/", []string{">out", "rsync"}},
		{"rsync -a src/ ~/ --info progress2", []string{">~", "rsync"}},
		{"cp -r s ~/.ssh/", []string{">~/.ssh", ">~/.ssh/s", "cp"}},
		{"cp -r s out//", []string{">out", ">out/s", "cp"}},
		{"mv s ~/.config/", []string{">s", ">~/.config", ">~/.config/s", "mv"}},
		{"split a.txt out_", nil},
		{"split -l 10 a.txt ~/.bashrc", nil},
		{"csplit a.txt /x/", nil},
		{"mkdir -p ~/.ssh", []string{">~/.ssh", "mkdir"}},
		{"mkdir -m 777 a ~/x", []string{">a", ">~/x", "mkdir"}},
		{"rmdir ~/x", []string{">~/x", "rmdir"}},
		{"rmdir -p a/b", nil},
		{"mkfifo ~/.bashrc", []string{">~/.bashrc", "mkfifo"}},
		{"mknod ~/x p", []string{">~/x", "mknod"}},
		{"mknod -m 666 ~/x c 1 3", []string{">~/x", "mknod"}},
		{"setfacl -m u:evil:rw ~/.ssh", []string{">~/.ssh", "setfacl"}},
		{"setfacl -R --modify=u:evil:rwx ~", []string{">~", "setfacl"}},
		{"setfacl --restore=acl.txt", nil},
		{"find ~ | setfacl -m u:e:rw -", nil},
		{"ls | xargs -R 1 rm -rf", nil},
		{"ls | xargs -R1 -J % cp % ~", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocentArchives, got, err)
		})
	}
}

// TestShellKeysOfArchivesReadOnlyStayTheSame: tar listing or comparing,
// and asked only for its help or version, rsync listing, and xargs -R
// running a program that changes no file, keep their names as keys.
func TestShellKeysOfArchivesReadOnlyStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"tar -tzf a.tgz", []string{"tar"}},
		{"tar tvf a.tar", []string{"tar"}},
		{"tar --list --file=a.tar", []string{"tar"}},
		{"tar -df a.tar", []string{"tar"}},
		{"tar --help", []string{"tar"}},
		{"tar --version", []string{"tar"}},
		{"rsync --version", []string{"rsync"}},
		{"rsync -a src/", []string{"rsync"}},
		{"mkdir --version", []string{"mkdir"}},
		{"ls | xargs -R 1 echo", []string{"echo", "ls", "xargs"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// archiveAttacks are lines that write, make or remove path after setup;
// their keys must name it.
var archiveAttacks = []struct{ setup, line, path string }{
	{"mkdir d; : > d/f", "tar -cf pwned d", "pwned"},
	{"mkdir d; : > d/f", "tar czf pwned d", "pwned"},
	{"mkdir d; : > d/f; tar -cf pwned d; : > g", "tar -rf pwned g", "pwned"},
	{"mkdir s; : > s/f", "rsync -a s/ pwned/", "pwned"},
	{": > s", "rsync s pwned", "pwned"},
	{"mkdir s; : > s/f", "cp -r s pwned/", "pwned"},
	{"mkdir s", "mv s pwned/", "pwned"},
	{"", "mkdir -p pwned", "pwned"},
	{"mkdir pwned", "rmdir pwned", "pwned"},
	{"", "mkfifo pwned", "pwned"},
	{"", "mknod pwned p", "pwned"},
}

// TestArchiveAttacksChangeTheKeyedFileUnderBash keeps archiveAttacks
// honest: under bash each line changes its path, and its keys name it.
func TestArchiveAttacksChangeTheKeyedFileUnderBash(t *testing.T) {
	bash := bashPath(t)
	for _, tt := range archiveAttacks {
		t.Run(tt.line, func(t *testing.T) {
			if _, err := exec.LookPath("rsync"); err != nil && strings.HasPrefix(tt.line, "rsync") {
				if os.Getenv("CI") != "" {
					t.Fatal("no rsync under CI: the line must run under bash")
				}
				t.Skip("needs rsync; install it to run the line under bash")
			}
			keys, err := keysOf(tt.line)
			if err != nil || !slices.Contains(keys, ">"+tt.path) {
				t.Errorf("keys %q (%v) do not name %s", keys, err, tt.path)
			}
			dir := t.TempDir()
			runIn(t, bash, dir, tt.setup)
			before := fileState(t, filepath.Join(dir, tt.path))
			runIn(t, bash, dir, tt.line)
			if after := fileState(t, filepath.Join(dir, tt.path)); after == before {
				t.Errorf("bash left %s as it was: %s", tt.path, after)
			}
		})
	}
}

// TestTarExtractAttackWritesThroughALinkUnderBash: an archive holding
// a link to a folder outside, then one holding a file under the link's
// name, write that file outside, which no word of the line names; the
// line has no keys.
func TestTarExtractAttackWritesThroughALinkUnderBash(t *testing.T) {
	bash := bashPath(t)
	line := "tar xf ../a.tar; tar xf ../b.tar"
	if keys, err := keysOf(line); err == nil {
		t.Errorf("keys %q, want none", keys)
	}
	dir := t.TempDir()
	runIn(t, bash, dir, "mkdir out w b c; ln -s ../out b/l; tar -cf a.tar -C b l; "+
		"mkdir c/l; echo x > c/l/pwned; tar -cf b.tar -C c l/pwned")
	runIn(t, bash, filepath.Join(dir, "w"), line)
	if _, err := os.Stat(filepath.Join(dir, "out", "pwned")); err != nil {
		t.Errorf("tar wrote nothing through the link: %v", err)
	}
}

// runIn runs line under bash in dir, if it is not empty.
func runIn(t *testing.T, bash, dir, line string) {
	t.Helper()
	if line == "" {
		return
	}
	cmd := exec.Command(bash, "-c", line)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", line, err, out)
	}
}
