package builtin

import "testing"

// TestShellKeysOfGitRevisionsGitComputesStayTheSame: a word of git diff
// or log computed by git merge-base or rev-parse with fixed revisions
// prints object names, which begin with no "-" and hold no space, so it
// is no option such as --output and the call keeps the key git.
func TestShellKeysOfGitRevisionsGitComputesStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"git diff $(git merge-base main HEAD)", []string{"git"}},
		{"git diff \"$(git merge-base origin/main HEAD)\" -- f.go", []string{"git"}},
		{"git log --oneline $(git merge-base --fork-point main)..HEAD", []string{"git"}},
		{"git diff --stat $(git rev-parse --verify HEAD~1)", []string{"git"}},
		{"git show $(git rev-parse --short HEAD)", []string{"git"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// gitRevisionAttacks compute a word of git diff that is, or splits into,
// an option writing a file: rev-parse prints back what it does not read
// as a revision, and merge-base -h prints its usage.
var gitRevisionAttacks = []string{
	"git diff $(git rev-parse --output=pwned)",
	"git diff $(git rev-parse 'x --output=pwned')",
	"git diff $(git merge-base -h)",
	"git diff $(git merge-base main HEAD; echo --output=pwned)",
	"git diff $(git merge-base main HEAD >f)",
	"git diff $(cat f)",
}

func TestShellKeysOfGitRevisionsComputedOtherwiseHaveNone(t *testing.T) {
	for _, line := range gitRevisionAttacks {
		t.Run(line, func(t *testing.T) {
			got, err := keysOf(line)
			checkKeys(t, nil, got, err)
		})
	}
}

// TestGitRevisionAttacksRunUnderBash: rev-parse prints back an option it
// does not know, which git diff then reads as --output.
func TestGitRevisionAttacksRunUnderBash(t *testing.T) {
	checkRunsTouch(t, bashPath(t), "git init -q && "+gitRevisionAttacks[0])
}
