package builtin

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShellKeysOfEverydayLinesAreNarrowAndStable: the lines a model runs
// all the time get keys that name their commands, so one "always" covers
// the next variation of the same work (another package, file or count),
// while a line that reads or writes through a path keyed as itself stays
// narrow.
func TestShellKeysOfEverydayLinesAreNarrowAndStable(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"go test ./...", []string{"go"}},
		{"go build ./...", []string{"go"}},
		{"go vet ./...", []string{"go"}},
		{"npm test", []string{"npm"}},
		{"npm run build", []string{"npm"}},
		{"npx tsc --noEmit", []string{"npx"}},
		{"pytest -q", []string{"pytest"}},
		{"python -m pytest tests/", []string{"python -m pytest"}},
		{"cargo test", []string{"cargo"}},
		{"make test", []string{"make"}},
		{"git status", []string{"git"}},
		{"git diff", []string{"git"}},
		{"git log --oneline -5", []string{"git"}},
		{"git add -A && git commit -m \"x\"", []string{"git"}},
		{"ls -la", []string{"ls"}},
		{"cat f", []string{"cat"}},
		{"head -n 20 f", []string{"head"}},
		{"grep -rn foo src/", []string{"grep"}},
		{"rg foo", []string{"rg"}},
		{"find . -name '*.go'", []string{"find"}},
		{"sed -n '1,20p' f", []string{"sed"}},
		{"awk '{print $1}' f", []string{"awk"}},
		{"wc -l f", []string{"wc"}},
		{"echo $HOME", []string{"echo"}},
		{"cd src && go test ./...", []string{"cd", "cd src", "go"}},
		{"for f in *.go; do gofmt -l $f; done", []string{"f=*", "gofmt"}},
		{"jq . f.json", []string{"jq"}},
		{"curl -s http://localhost:8080/health", []string{"curl"}},
		// a commit message from a command or a here-document
		{"git commit -m \"$(cat msg.txt)\"", []string{"cat", "git"}},
		{"git commit -m \"$(cat <<'EOF'\nfix: x\n\nbody\nEOF\n)\"", []string{"cat", "git"}},
		{"git commit -F - <<'EOF'\nfix: x\nEOF", []string{"git"}},
		// [ is test by another name
		{"[ -f go.mod ] && go test ./...", []string{"[", "go"}},
		{"if [ -d node_modules ]; then npm test; fi", []string{"[", "npm"}},
		{"i=0; while [ $i -lt 3 ]; do i=$((i+1)); done", []string{"[", "i=*", "i=0"}},
		// long options that take no value
		{"timeout --foreground 600 go test ./...", []string{"go", "timeout"}},
		{"timeout --preserve-status -k 5 60 make test", []string{"make", "timeout"}},
		{"find . -name '*.go' -print0 | xargs --null gofmt -l", []string{"find", "gofmt", "xargs"}},
		{"sed -n '/[]]/p' f", []string{"sed"}},
		{"sed 's/[[:space:]]*$//' f", []string{"sed"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			if err != nil {
				t.Fatalf("no keys, so every variation asks again: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("keys mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
