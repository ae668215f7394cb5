package builtin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestShellKeysNameEveryCommandShRuns runs lines whose keys hold only
// harmless names (ls, env, echo, xargs, sudo) while sh runs touch: once
// ls and env are allowed for the session, each would run unasked.
func TestShellKeysNameEveryCommandShRuns(t *testing.T) {
	lines := []string{
		// wrapper options whose value is the next word
		"env -iu ls touch pwned",
		"env --unset ls touch pwned",
		"echo pwned | xargs -tI ls touch ls",
		"echo pwned | xargs --process-slot-var ls touch",
		"sudo -Ep ls touch pwned",
		"sudo --prompt ls touch pwned",
		// env -S runs its value as the command
		"env -S 'touch pwned'",
		"env '-Stouch pwned'",
		"env --split-string='touch pwned'",
		// dash (Debian's sh) runs ((...)) as two nested subshells
		"ls && ((${X:-touch pwned}))",
		// builtins that keep a command line to run later
		"trap 'touch pwned' EXIT",
		"trap -- 'touch pwned' EXIT",
		"sudo -- A=1 touch pwned",
		"alias ls='touch pwned'\nls",
		// options after -c come before the line sh runs
		"sh -c -- 'touch pwned'",
		"sh -c -e 'touch pwned'",
		"sh -c -o errexit 'touch pwned'",
		// wrappers that run the command after their options
		"setsid -w touch pwned",
		"ionice -c 3 touch pwned",
		// dash has no [[ ]] or &>, and sh takes \r for a letter
		"ls; [[ x || touch = pwned ]]",
		"ls &>/dev/null touch pwned",
		"ls \r#\r; touch pwned",
		"cat <<'EOF\r'\nEOF\r\ntouch pwned\nEOF\r",
		// bash, sh on macOS, Fedora and Arch, reads a variable's value
		// as an expression where arithmetic reads it, and runs what a
		// subscript in it holds (TestArithAttacksRunUnderBash)
		"for x in 'a[$(touch pwned)]'; do echo $((x)); done",
		"set -- 'a[$(touch pwned)]'; echo $(($1))",
		"read x <<'E'\na[$(touch pwned)]\nE\necho ${a[$x]}",
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			args, _ := json.Marshal(shellArgs{Command: line})
			keys, err := shellKeys(args)
			ran := runs(t, line)
			if err == nil && !slices.Contains(keys, "touch") {
				t.Errorf("keys %q omit touch (sh here ran it: %v)", keys, ran)
			}
		})
	}
}

// runs reports whether the shell tool, running line, created ./pwned.
func runs(t *testing.T, line string) bool {
	root := t.TempDir()
	_, tools := open(t, Options{Root: root, AllowShell: true, ShellTimeout: 5 * time.Second})
	call(t, tools["shell"], map[string]string{"command": line})
	_, err := os.Stat(filepath.Join(root, "pwned"))
	return err == nil
}
