package builtin

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// innocentChanges are lines that copy, move, link, create, remove or
// edit a file, which a user may well answer "always" for; the lines of
// TestShellKeysNameFilesProgramsChange must not be covered by their keys.
var innocentChanges = []string{
	"cp a.txt b.txt", "cp -r src/ dst/", "mv a.txt b.txt", "install -m 755 app /tmp/app",
	"ln -s a.txt b.txt", "touch a.txt", "rm a.txt", "rm -rf build", "chmod 644 a.txt",
	"chmod +x run.sh", "truncate -s 0 a.txt", "sed -i 's/a/b/' a.txt",
}

// TestShellKeysNameFilesProgramsChange: cp, mv, install and ln write the
// file their destination names, touch, rm, chmod, truncate and sed -i
// change each file they are given, and mv removes its sources, so they
// are keyed as a redirection to those files is: ">" and the path. A
// destination that may be a folder writes the file of each source's
// name in it. A call whose changed file is computed, globbed or fed, or
// whose options are not all known or read otherwise by BSD's getopt
// (an option after an operand), or that writes a backup, has no keys (nil).
func TestShellKeysNameFilesProgramsChange(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"cp x ~/.bashrc", []string{">~/.bashrc", ">~/.bashrc/x", "cp"}},
		{"cp -f x ~/.bashrc", []string{">~/.bashrc", ">~/.bashrc/x", "cp"}},
		{"cp x ~", []string{">~/x", "cp"}},
		{"cp a/.bashrc ~/", []string{">~/.bashrc", "cp"}},
		{"cp a b ~/.ssh", []string{">~/.ssh/a", ">~/.ssh/b", "cp"}},
		{"cp -t ~ .bashrc", []string{">~/.bashrc", "cp"}},
		{"cp -rt ~/.config autostart", []string{">~/.config/autostart", "cp"}},
		{"cp -t~/.ssh authorized_keys", []string{">./~/.ssh/authorized_keys", "cp"}},
		{"cp --target-directory=~/.ssh authorized_keys", []string{">./~/.ssh/authorized_keys", "cp"}},
		{"cp --target ~/.ssh authorized_keys", []string{">~/.ssh/authorized_keys", "cp"}},
		{"cp -T x ~/.bashrc", []string{">~/.bashrc", "cp"}},
		{"cp --no-target-directory x ~/.bashrc", []string{">~/.bashrc", "cp"}},
		{"cp --parents a/b ~", []string{">~/a/b", "cp"}},
		{"cp -- -x ~/.bashrc", []string{">~/.bashrc", ">~/.bashrc/-x", "cp"}},
		{"cp -a --preserve=mode x /etc/sudoers", []string{">/etc/sudoers", ">/etc/sudoers/x", "cp"}},
		{"sudo cp x /etc/sudoers", []string{">/etc/sudoers", ">/etc/sudoers/x", "cp", "sudo"}},
		{"cp -b x ~/.bashrc", nil},
		{"cp --suffix=.orig x y", nil},
		{"cp x \"$F\"", nil},
		{"cp x ~/.b*", nil},
		{"cp x {a,b}", nil},
		{"cp -r . ~", nil},
		{"cp --bogus x y", nil},
		{"cp --re x y", nil}, // ambiguous: --recursive, --reflink, --remove-destination
		{"cp x y -t ~", nil},
		{"find . -exec cp {} ~ \\;", nil},
		{"ls | xargs cp -t ~", nil},
		{"mv -- -x y", []string{">-x", ">y", ">y/-x", "mv"}},
		{"mv x ~/.bashrc", []string{">x", ">~/.bashrc", ">~/.bashrc/x", "mv"}},
		{"mv ~/.ssh/authorized_keys /tmp/", []string{">/tmp", ">/tmp/authorized_keys", ">~/.ssh/authorized_keys", "mv"}},
		{"mv -t ~/bin ls", []string{">ls", ">~/bin/ls", "mv"}},
		{"mv -S .old x y", nil},
		{"install -m 755 x ~/.local/bin/ls", []string{">~/.local/bin/ls", ">~/.local/bin/ls/x", "install"}},
		{"install -Dm755 x ~/.local/bin/ls", []string{">~/.local/bin/ls", ">~/.local/bin/ls/x", "install"}},
		{"install -d ~/.ssh ~/.config", []string{">~/.config", ">~/.ssh", "install"}},
		{"install -t ~/.local/bin x", []string{">~/.local/bin/x", "install"}},
		{"install -s --strip-program=evil x y", nil},
		{"ln -s ~/evil ~/.bashrc", []string{">~/.bashrc", ">~/.bashrc/evil", ">~/evil", "ln"}},
		{"ln -sf /tmp/.bashrc", []string{">.bashrc", ">/tmp/.bashrc", "ln"}},
		{"ln -st ~/bin /tmp/ls", []string{">/tmp/ls", ">~/bin/ls", "ln"}},
		{"ln -sT /tmp/x ~/.bashrc", []string{">/tmp/x", ">~/.bashrc", "ln"}},
		{"ln -s ..", nil},
		{"touch ~/.bashrc", []string{">~/.bashrc", "touch"}},
		{"touch -d yesterday a ~/.bashrc", []string{">a", ">~/.bashrc", "touch"}},
		{"touch -r a -- -b", []string{">-b", "touch"}},
		{"rm -rf ~", []string{">~", "rm"}},
		{"rm -f -- -rf", []string{">-rf", "rm"}},
		{"rm -rf / --no-preserve-root", nil},
		{"sudo rm -rf /", []string{">/", "rm", "sudo"}},
		{"rm *.txt", nil},
		{"rm -rf \"$D\"", nil},
		{"rm -rf $D/x", nil},
		{"find . -name '*.o' -exec rm -f {} +", nil},
		{"ls | xargs rm", nil},
		{"chmod 777 ~/.ssh", []string{">~/.ssh", "chmod"}},
		{"chmod -R go+w ~", []string{">~", "chmod"}},
		{"chmod -x ~/.bashrc", []string{">~/.bashrc", "chmod"}},
		{"chmod -x 644 ~/.bashrc", []string{">644", ">~/.bashrc", "chmod"}},
		{"chmod --reference=a ~/.bashrc", []string{">~/.bashrc", "chmod"}},
		{"chmod -Rx f", nil},
		{"chmod \"$M\" f", nil},
		{"truncate -s 0 ~/.bashrc", []string{">~/.bashrc", "truncate"}},
		{"truncate --size=0 ~/.bashrc", []string{">~/.bashrc", "truncate"}},
		{"truncate -cs0 ~/.bashrc", []string{">~/.bashrc", "truncate"}},
		{"sed -i 's/a/b/' ~/.bashrc", []string{">~/.bashrc", "sed"}},
		{"sed -i.bak -e 's/a/b/' ~/.bashrc", []string{">~/.bashrc", ">~/.bashrc.bak", "sed"}},
		{"sed --in-place=.orig 's/a/b/' ~/.bashrc", []string{">~/.bashrc", ">~/.bashrc.orig", "sed"}},
		{"sed --in-place 's/a/b/' f ~/.bashrc", []string{">f", ">~/.bashrc", "sed"}},
		{"sed -ni 's/a/b/p' ~/.bashrc", []string{">~/.bashrc", "sed"}},
		{"sed -i -e 's/a/b/' f", []string{">f", ">f-e", "sed"}},
		{"sed -E -i -- 's/a/b/' -f", []string{">-f", ">-f--", "sed"}},
		{"sed -i 's/a/b/' *.go", nil},
		{"sed -i'bak/*' 's/a/b/' f", nil},
		{"sed -i 's/a/b/' \"$F\"", nil},
		{"sed 's/a/b/' -i f", nil},
		{"find . -name '*.go' -exec sed -i 's/a/b/' {} +", nil},
		{"ls | xargs sed -i s/a/b/ --", nil},
		{"find . -name '*.tmp' -exec rm -f {} \\; -o -execdir sudo chmod 600 {} +", nil},
		{"find ~ -delete", nil},
		{"find . -name '*.tmp' -print -delete", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocentChanges, got, err)
		})
	}
}

// TestShellKeysOfProgramsChangingNoFileStayTheSame: the same programs
// asked only for their help or version, or sed without -i, keep their
// names as keys.
func TestShellKeysOfProgramsChangingNoFileStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"cp --help", []string{"cp"}},
		{"mv --version", []string{"mv"}},
		{"ln --version", []string{"ln"}},
		{"rm --help", []string{"rm"}},
		{"chmod --version", []string{"chmod"}},
		{"sed -n 1p f", []string{"sed"}},
		{"sed 's/a/b/' f > /tmp/out", []string{">/tmp/out", "sed"}},
		{"touch /dev/null", []string{">/dev/null", "touch"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// changeAttacks are lines whose options make them change a file other
// than a plain reading of their words suggests, after setup; path is
// the file changed, whose key they must have.
var changeAttacks = []struct{ setup, line, path string }{
	{"mkdir d; : > s", "cp -t d s", "d/s"},
	{"mkdir d; : > s", "cp --target=d s", "d/s"},
	{"mkdir d; : > s", "cp s d", "d/s"},
	{"mkdir -p a d; : > a/f", "cp --parents a/f d", "d/a/f"},
	{": > s", "cp -T s pwned", "pwned"},
	{": > ./-x", "mv -- -x pwned", "-x"},
	{": > ./-x", "mv -- -x pwned", "pwned"},
	{"mkdir d; : > s", "mv -t d s", "d/s"},
	{"", "ln -s target pwned", "pwned"},
	{"mkdir d", "ln -s /tmp/pwned d", "d/pwned"},
	{"", "ln -s /tmp/pwned", "pwned"},
	{": > s", "install -D s a/b/pwned", "a/b/pwned"},
	{"mkdir d; : > s", "install -t d s", "d/s"},
	{"", "install -d pwned", "pwned"},
	{"", "touch -d yesterday -- -pwned", "-pwned"},
	{": > pwned", "rm -f -- pwned", "pwned"},
	{": > pwned", "chmod -w pwned", "pwned"},
	{": > f; : > 644", "chmod -w 644 f", "644"},
	{"printf abc > pwned", "truncate -s 1 pwned", "pwned"},
	{"echo a > pwned", "sed -i s/a/b/ pwned", "pwned"},
	{"echo a > f", "sed -i.bak s/a/b/ f", "f.bak"},
}

// TestChangeAttacksChangeTheKeyedFileUnderBash keeps changeAttacks
// honest: under bash each line changes its path (creates, removes or
// alters it), and the line's keys name that path.
func TestChangeAttacksChangeTheKeyedFileUnderBash(t *testing.T) {
	bash := bashPath(t)
	for _, tt := range changeAttacks {
		t.Run(tt.line+" "+tt.path, func(t *testing.T) {
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
			if tt.setup != "" {
				run(tt.setup)
			}
			before := fileState(t, filepath.Join(dir, tt.path))
			run(tt.line)
			if after := fileState(t, filepath.Join(dir, tt.path)); after == before {
				t.Errorf("bash left %s as it was: %s", tt.path, after)
			}
		})
	}
}

// fileState describes what a line may change of a file: whether it is
// there, its kind, mode, size, time and bytes.
func fileState(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "absent"
	}
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	if info.Mode().IsRegular() {
		if data, err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	b.WriteString(info.Mode().String() + " " + info.ModTime().String() + " ")
	b.Write(data)
	return b.String()
}
