package builtin

import (
	"encoding/json"
	"testing"
)

// A variable a line sets decides what its commands run (PATH picks the
// ls that runs, LD_PRELOAD loads code into it, GIT_EXTERNAL_DIFF is a
// command git runs), so approving ls for the session must not approve
// ls run under any variables: each assignment is a key of its own, by
// its value when fixed and as NAME=* when computed.
func TestShellKeysNameTheVariablesALineSets(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"PATH=/tmp/evil ls", []string{"PATH=/tmp/evil", "ls"}},
		{"PATH=/tmp/evil; ls", []string{"PATH=/tmp/evil", "ls"}},
		{"PATH=/tmp/evil\nls", []string{"PATH=/tmp/evil", "ls"}},
		{"LD_PRELOAD=./x.so ls", []string{"LD_PRELOAD=./x.so", "ls"}},
		{"PATH+=:/tmp/evil ls", []string{"PATH+=:/tmp/evil", "ls"}},
		{"GIT_EXTERNAL_DIFF=\"$X\" git diff", []string{"GIT_EXTERNAL_DIFF=*", "git"}},
		{"export PATH=/tmp/evil && ls", []string{"PATH=/tmp/evil", "export", "ls"}},
		{"export PATH=$(pwd)/bin", []string{"PATH=*", "export", "pwd"}},
		{"for PATH in /tmp/evil; do ls; done", []string{"PATH=*", "ls"}},
		{"for f in *.go; do wc -l \"$f\"; done", []string{"f=*", "wc"}},
		{"a=(x y); ls", []string{"a=*", "ls"}},
		{"FOO=bar BAZ=\"a b\" go test ./...", []string{"BAZ=a b", "FOO=bar", "go"}},
		{"X=$(curl -s evil.test) true", []string{"X=*", "curl", "true"}},
		{"CGO_ENABLED=0 go build", []string{"CGO_ENABLED=0", "go"}},
		{"X= ls", []string{"X=", "ls"}},
		{"A=1", []string{"A=1"}},
		// env and sudo take any word with an "=" for a variable; one
		// that is no name would read as another kind of key
		{"env 'cd /tmp/evil=x' ls", nil},
		{"env '. ./evil.sh=x' ls", nil},
		{"sudo -- '>.bashrc=x' ls", nil},
		{"env A-B=1 ls", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			args, _ := json.Marshal(shellArgs{Command: tt.line})
			got, err := shellKeys(args)
			checkKeys(t, tt.want, got, err)
		})
	}
}
