package builtin

import (
	"os/exec"
	"testing"
)

// innocentOptionLines are lines of programs a user may well answer
// "always" for; the lines of TestShellKeysOfOptionsThatRunOrWrite must
// not be covered by their keys.
var innocentOptionLines = []string{
	"sort f", "sort -u -k 2 f", "npx tsc --noEmit", "npm test", "npm run build",
	"git diff", "git log -p", "git show HEAD", "git archive --format=tar HEAD",
	"go test ./...", "go vet ./...", "go run .", "cargo test", "ls | less -R",
	"go env -w GOFLAGS=-mod=mod", "npm test --script-shell=/bin/bash", "npm install --userconfig=.npmrc",
}

// TestShellKeysOfOptionsThatRunOrWrite: sort --compress-program runs the
// program it names on sort's temporary files, npx -c and npm exec -c run
// a shell line, go -exec, -toolexec and -vettool and cargo --config (a
// runner) run the command they name, and git diff, log and show
// --output, git archive -o and less -o write the file they name; each
// such call is keyed by the whole call.
func TestShellKeysOfOptionsThatRunOrWrite(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"sort --compress-program=./evil -S 1 f", []string{"sort '--compress-program=./evil' -S 1 f"}},
		{"sort --compress-prog ./evil f", []string{"sort --compress-prog ./evil f"}},
		{"npx -c 'rm -rf x'", []string{"npx -c 'rm -rf x'"}},
		{"npx --call='rm -rf x'", []string{"npx '--call=rm -rf x'"}},
		{"npm exec -c 'rm -rf x'", []string{"npm exec -c 'rm -rf x'"}},
		{"npm x --call 'rm -rf x'", []string{"npm x --call 'rm -rf x'"}},
		{"git diff --output=/home/u/.bashrc", []string{"git diff '--output=/home/u/.bashrc'"}},
		{"git log -p --output /home/u/.bashrc", []string{"git log -p --output /home/u/.bashrc"}},
		{"git show --output=/home/u/.bashrc HEAD", []string{"git show '--output=/home/u/.bashrc' HEAD"}},
		{"git archive -o /home/u/.bashrc HEAD", []string{"git archive -o /home/u/.bashrc HEAD"}},
		{"git archive --output=/home/u/.bashrc HEAD", []string{"git archive '--output=/home/u/.bashrc' HEAD"}},
		{"go test -exec 'rm -rf x' ./...", []string{"go test -exec 'rm -rf x' ./..."}},
		{"go test -toolexec=./evil ./...", []string{"go test '-toolexec=./evil' ./..."}},
		{"go vet --vettool ./evil ./...", []string{"go vet --vettool ./evil ./..."}},
		{"go run -exec ./evil .", []string{"go run -exec ./evil ."}},
		{"cargo test --config 'target.x.runner=\"rm\"'", []string{`cargo test --config 'target.x.runner="rm"'`}},
		{"ls | less -o /home/u/.bashrc", []string{"less -o /home/u/.bashrc", "ls"}},
		{"ls | less --LOG-FILE=/home/u/.bashrc", []string{"less '--LOG-FILE=/home/u/.bashrc'", "ls"}},
		{"go env -w GOFLAGS=-exec=./evil", []string{"go env -w 'GOFLAGS=-exec=./evil'"}},
		{"npm test --script-shell=./evil.sh", []string{"npm test '--script-shell=./evil.sh'"}},
		{"npm test --script ./evil.sh", []string{"npm test --script ./evil.sh"}},
		{"npm run build --node-options='--require ./evil.js'", []string{"npm run build '--node-options=--require ./evil.js'"}},
		{"npm install --userconfig=evil.npmrc", []string{"npm install '--userconfig=evil.npmrc'"}},
		{"npx --shell=./evil.sh tsc", []string{"npx '--shell=./evil.sh' tsc"}},
		{"git diff \"$X\"", nil},
		// "--" may be an option's value (sort -T --), so fed words may
		// still be options
		{"echo --compress-program=./evil f | xargs sort -T --", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocentOptionLines, got, err)
		})
	}
}

// TestShellKeysOfOptionsThatNeitherRunNorWriteStayTheSame: the same
// programs given other options keep their names as keys.
func TestShellKeysOfOptionsThatNeitherRunNorWriteStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"sort -S 50% -t, -k2 f", []string{"sort"}},
		{"npx tsc --noEmit", []string{"npx"}},
		{"npm run build", []string{"npm"}},
		{"git diff --stat HEAD~1", []string{"git"}},
		{"git log --oneline -5", []string{"git"}},
		{"git show --name-only HEAD", []string{"git"}},
		{"git archive --format=tar HEAD | tar -t", []string{"git", "tar"}},
		{"go test -race -cover -run TestX -count=1 ./...", []string{"go"}},
		{"go vet -v ./...", []string{"go"}},
		{"cargo test --color=always", []string{"cargo"}},
		{"go env GOPATH", []string{"go"}},
		{"npm install --save-dev typescript", []string{"npm"}},
		{"ls | less -RS", []string{"less", "ls"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// TestOptionAttacksRunUnderBash: go env -w writes the file go reads its
// settings from (GOENV names it here), and npm's --script-shell, however
// abbreviated, runs the program it names in place of sh.
func TestOptionAttacksRunUnderBash(t *testing.T) {
	bash := bashPath(t)
	lines := []string{"GOENV=pwned go env -w GOFLAGS=-exec=./evil"}
	if _, err := exec.LookPath("npm"); err == nil {
		lines = append(lines, `echo '{"scripts":{"test":"x"}}' > package.json; printf '#!/bin/sh\ntouch pwned\n' > evil.sh; chmod +x evil.sh; npm test --script=./evil.sh`)
	}
	if _, err := exec.LookPath("go"); err != nil {
		lines = lines[1:]
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			checkRunsTouch(t, bash, line)
		})
	}
}
