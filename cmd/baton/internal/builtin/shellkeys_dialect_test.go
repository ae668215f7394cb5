package builtin

import (
	"slices"
	"testing"
)

// innocentLines are lines a user may well answer "always" for.
var innocentLines = []string{
	"ls", "ls -la", "cat README.md", "git status", "go test ./...", "npm test", "echo hi",
	"read x", "cd src", "env A=1 ls", "xargs -I {} gofmt -l {}",
}

// TestShellKeysReadLinesAsTheShThatRunsThem: sh is dash on Debian and
// bash elsewhere, and each reads some lines other than mvdan.cc/sh's bash
// parser does: dash has no [[ ]] or &>, so it runs the words inside [[ ]]
// and after &>FILE as commands of their own; both take a carriage return
// for a letter where the parser takes it for a blank (so "\r#" starts no
// comment) or drops it before a newline (so "EOF\r" ends no here-document
// whose delimiter is "EOF\r"); bash ends a here-document inside $(...) at
// a line "EOF)"; both run time's options (-o FILE) as /usr/bin/time's,
// not as a command named -o; dash runs x[a/b]=1 as the file it names; and
// bash runs what ${x@P} finds in x. Each line runs rm while its keys were
// all allowed by the innocent lines (or named no rm); it must have no
// keys, so it is approved only as itself.
func TestShellKeysReadLinesAsTheShThatRunsThem(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"ls; [[ x || rm = README.md ]]", nil},
		{"ls; [[ x > README.md ]]", nil},
		{"echo hi; [[ -v x ]]", nil},
		{"ls &>/dev/null rm -rf x", nil},
		{"ls &>>/dev/null rm -rf x", nil},
		{"ls &> out.log rm -rf x", nil},
		{"ls \r#\r; rm -rf x", nil},
		{"ls\r# ; rm -rf x", nil},
		{"cat <<'EOF\r'\nEOF\r\nrm -rf x\nEOF\r", nil},
		{"sh -c 'ls \r# ; rm -rf x'", nil},
		{"echo $(cat <<EOF\nEOF)\nrm -rf x\nEOF\n)", nil},
		{"echo $(cat <<'EOF'\nEOF)\nrm -rf x\nEOF\n)", nil},
		{"echo $(cat <<-EOF\n\tEOF )\nrm -rf x\nEOF\n)", nil},
		{"ls; time -o ls rm -rf x", nil},
		{"ls; time -- rm -rf x", nil},
		{"ls; x[a/b]=1", nil},
		{"read x < f; echo ${x@P}", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocentLines, got, err)
		})
	}
}

// TestShellKeysOfLinesBothShsReadAlikeStayTheSame: the refusals above
// leave the keys of lines dash, bash and the parser agree on.
func TestShellKeysOfLinesBothShsReadAlikeStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"go test ./... &> out.log", []string{">out.log", "go"}},
		{"make &>>build.log 2>&1", []string{">build.log", "make"}},
		{"{ ls; } &>/dev/null", []string{"ls"}},
		{"cat <<EOF\nhello\nEOF\nls", []string{"cat", "ls"}},
		{"cat <<-'EOF'\n\thello EOF\n\tEOF", []string{"cat"}},
		{"echo $(cat <<EOF\nhi\nEOF\n)", []string{"cat", "echo"}},
		{"time ls", []string{"ls"}},
		{"time -p go test ./...", []string{"go"}},
		{"echo ${x:-y} ${#x}", []string{"echo"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// checkNotCovered fails when keys derived without error are all among
// those of the innocent lines, each approved with "always" (a line
// without keys is approved as itself).
func checkNotCovered(t *testing.T, innocent, got []string, err error) {
	t.Helper()
	if err != nil {
		return
	}
	var allowed []string
	for _, line := range innocent {
		keys, err := keysOf(line)
		if err != nil {
			keys = []string{line}
		}
		allowed = append(allowed, keys...)
	}
	if !slices.ContainsFunc(got, func(k string) bool { return !slices.Contains(allowed, k) }) {
		t.Errorf("keys %q are all allowed by %q, whose keys are %q", got, innocent, allowed)
	}
}
