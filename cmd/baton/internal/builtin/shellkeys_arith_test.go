package builtin

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// arithAttacks run touch under bash, the sh of macOS, Fedora and Arch:
// bash evaluates a variable's value as an expression where arithmetic
// reads it ($((x)), a subscript, a substring offset, let, declare -i,
// test -v, ${!x}), and a subscript in that value runs the command
// substitution in it. Each line's plain keys (echo, read, for x) are
// allowed by innocent lines, so each has none: it is approved as itself.
var arithAttacks = []string{
	"for x in 'a[$(touch pwned)]'; do echo $((x)); done",
	"for x in 'a[$(touch pwned)]'; do echo $[x]; done",
	"read x <<'E'\na[$(touch pwned)]\nE\necho $((x))",
	"read x <<'E'\na[$(touch pwned)]\nE\necho $(($x))",
	"read x <<'E'\na[$(touch pwned)]\nE\necho \"$(( \"$x\" ))\"",
	"set -- 'a[$(touch pwned)]'; echo $(($1))",
	"f() { echo $(($1)); }; f 'a[$(touch pwned)]'",
	"bash -c 'echo $(($1))' sh 'a[$(touch pwned)]'",
	"x='a[$(touch pwned)]'; echo $((x))",
	"x=y; y='a[$(touch pwned)]'; echo $((x))",
	"x='a[$(touch pwned)]' bash -c 'echo $((x))'",
	"env x='a[$(touch pwned)]' bash -c 'echo $((x))'",
	"export x='a[$(touch pwned)]'; bash -c 'echo $((x))'",
	"echo ${x:='a[$(touch pwned)]'} $((x))",
	"read x <<'E'\na[$(touch pwned)]\nE\nlet x",
	"read x <<'E'\na[$(touch pwned)]\nE\nfor ((i=x; i<1; i++)); do :; done",
	"read x <<'E'\na[$(touch pwned)]\nE\necho ${a[$x]}",
	"read x <<'E'\na[$(touch pwned)]\nE\necho ${a[x]}",
	"read x <<'E'\na[$(touch pwned)]\nE\necho ${x:x}",
	"read x <<'E'\na[$(touch pwned)]\nE\necho ${x:0:$x}",
	"read x <<'E'\na[$(touch pwned)]\nE\necho ${!x}",
	"read x <<'E'\na[$(touch pwned)]\nE\ndeclare -i y; y=$x",
	"declare -i y; read y <<'E'\na[$(touch pwned)]\nE",
	"read x <<'E'\na[$(touch pwned)]\nE\ntest -v \"$x\"",
	"read x <<'E'\na[$(touch pwned)]\nE\n[ -v \"$x\" ]",
	"test -v 'a[$(touch pwned)]'",
	"read x <<'E'\n-v a[$(touch${IFS}pwned)]\nE\ntest $x",
	"read o <<'E'\n-v\nE\ntest \"$o\" 'a[$(touch pwned)]'",
	"select x in 1; do echo $((REPLY)); break; done <<'E'\na[$(touch pwned)]\nE",
	"read x <<'E'\na[$(touch pwned)]\nE\nb=(\"$x\"); echo $((b[0]))",
	"n=$(cat <<'E'\na[$(touch pwned)]\nE\n); echo $((n + 1))",
	"echo $(( $(cat <<'E'\na[$(touch pwned)]\nE\n) ))",
	"x=('a[$(touch pwned)]'); echo ${!x[0]}",
	"declare -i x; x='a[$(touch pwned)]'",
	"declare x='a[$(touch pwned)]'; echo $((x))",
	"declare 'x=a[$(touch pwned)]'; echo $((x))",
	"getopts a: o -a 'a[$(touch pwned)]'; echo $((OPTARG))",
}

func TestShellKeysKeepArithmeticFromDataTheLineDoesNotFix(t *testing.T) {
	for _, line := range arithAttacks {
		t.Run(line, func(t *testing.T) {
			got, err := keysOf(line)
			checkKeys(t, nil, got, err)
			checkNotCovered(t, innocentLines, got, err)
		})
	}
}

// TestArithAttacksRunUnderBash keeps arithAttacks honest: each runs touch
// under bash, so refusing it guards against something real.
func TestArithAttacksRunUnderBash(t *testing.T) {
	bash := bashPath(t)
	for _, line := range arithAttacks {
		t.Run(line, func(t *testing.T) {
			checkRunsTouch(t, bash, line)
		})
	}
}

// bashPath is where bash is; a test without it is skipped, but fails
// under CI, where it must run.
func bashPath(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no bash under CI: install bash to run the attacks it would run")
		}
		t.Skip("needs bash; install it to run the attack lines under it")
	}
	return bash
}

// checkRunsTouch runs line under bash in a folder of its own, with env
// added to the environment, and fails unless it made the file pwned.
func checkRunsTouch(t *testing.T, bash, line string, env ...string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(bash, "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	_ = cmd.Run() // many end in an arithmetic error once touch ran
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err != nil {
		t.Errorf("bash did not run touch: %v", err)
	}
}

// TestShellKeysOfArithmeticOnFixedTextStayTheSame: where every value a
// variable gets on the line is a number, fixed text without names or an
// arithmetic result, the line keeps its keys; a variable it reads that
// the line does not set adds "$NAME=env".
func TestShellKeysOfArithmeticOnFixedTextStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"i=0; i=$((i+1)); echo $i", []string{"echo", "i=*", "i=0"}},
		{"echo $((1 + 2 * 3)) $[4]", []string{"echo"}},
		{"for i in 1 2 3; do echo $((i * 2)); done", []string{"echo", "i=*"}},
		{"for i in {1..5}; do echo $((i * 2)); done", []string{"echo", "i=*"}},
		{"n=5; for ((i=0; i<n; i++)); do echo $i; done", []string{"echo", "i=*", "n=5"}},
		{"a=(1 2 3); echo ${a[1]} ${a[@]} ${#a[@]} $((a[2] + 1))", []string{"a=*", "echo"}},
		{"let i=1 i++", []string{"i=*", "let"}},
		{"echo $(( ${n:-0} + 1 )) $(( ${#HOME} ))", []string{"$n=env", "echo"}},
		{"s=hello; echo ${s:1:3}", []string{"echo", "s=hello"}},
		{"declare -i n=5; n+=1", []string{"declare", "n+=1", "n=*", "n=5"}},
		{"echo $(( $# + $? ))", []string{"echo"}},
		{"read -r x; test -n \"$x\" && test \"$x\" = y && test -v x", []string{"read", "test", "x=*"}},
		{"test $# -eq 0 || test -z $HOME", []string{"$HOME=env", "test"}},
		{"set -euo pipefail; make", []string{"make", "set"}},
		{"set -e; set +x", []string{"set"}},
		{"a=(1 2); echo ${!a[@]} ${!HO*}", []string{"a=*", "echo"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}

// TestShellKeysNameWhatSetSets: set with operands sets $1, $2, ... and
// "@=*" says so, as NAME=* does for a variable.
func TestShellKeysNameWhatSetSets(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"set -- a b", []string{"@=*", "set"}},
		{"set a b", []string{"@=*", "set"}},
		{"set -e -- a", []string{"@=*", "set"}},
		{"set -o errexit a", []string{"@=*", "set"}},
		{"set - a", []string{"@=*", "set"}},
		{"set $X", []string{"@=*", "set"}},
		{"set --", []string{"set"}},
		{"set -o errexit", []string{"set"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}
