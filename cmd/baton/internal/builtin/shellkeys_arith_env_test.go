package builtin

import "testing"

// envArithAttacks read FOO, a variable of the environment the line runs
// in, as arithmetic; bash evaluates FOO's value as an expression, so a
// FOO of 'a[$(touch pwned)]' runs touch. innocentEnvArith reads N, which
// the environment may hold as a number: approving it must not approve
// reading another variable, and so each line's keys name FOO.
var envArithAttacks = []struct {
	line string
	want []string
}{
	{"echo $((FOO))", []string{"$FOO=env", "echo"}},
	{"echo $((FOO+1))", []string{"$FOO=env", "echo"}},
	{"echo $(( ${FOO:-0} + 1 ))", []string{"$FOO=env", "echo"}},
	{"echo ${a[FOO]}", []string{"$FOO=env", "echo"}},
	{"for ((i=0; i<FOO; i++)); do :; done", []string{"$FOO=env", ":", "i=*"}},
	{"let x=FOO", []string{"$FOO=env", "let", "x=*"}},
	{"test $FOO", []string{"$FOO=env", "test"}},
	{"x=1; echo $((x + FOO))", []string{"$FOO=env", "echo", "x=1"}},
	{"bash -c 'echo $((FOO))'", []string{"$FOO=env", "bash", "echo"}},
}

var innocentEnvArith = []string{"echo $((N+1))", "echo $((N))", "echo ${a[N]}", "test $N", "let x=N", "x=1; echo $((x + N))"}

func TestShellKeysNameEnvironmentVariablesArithmeticReads(t *testing.T) {
	for _, tt := range envArithAttacks {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			checkNotCovered(t, innocentEnvArith, got, err)
		})
	}
}

// TestEnvArithAttacksRunUnderBash keeps envArithAttacks honest: with FOO
// in the environment, each but the test -n line runs touch under bash.
func TestEnvArithAttacksRunUnderBash(t *testing.T) {
	bash := bashPath(t)
	for _, tt := range envArithAttacks {
		t.Run(tt.line, func(t *testing.T) {
			foo := "a[$(touch pwned)]"
			if tt.line == "test $FOO" {
				foo = "-v a[$(touch${IFS}pwned)]"
			}
			checkRunsTouch(t, bash, tt.line, "FOO="+foo)
		})
	}
}

// TestShellKeysOfArithmeticOnBashNumbersStayTheSame: variables bash sets
// to a number itself, whatever the environment holds, and those the line
// sets, add no key.
func TestShellKeysOfArithmeticOnBashNumbersStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"echo $((RANDOM % 10)) $((SECONDS + LINENO))", []string{"echo"}},
		{"i=0; i=$((i+1)); echo $i", []string{"echo", "i=*", "i=0"}},
		{"n=5; for ((i=0; i<n; i++)); do echo $i; done", []string{"echo", "i=*", "n=5"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
		})
	}
}
