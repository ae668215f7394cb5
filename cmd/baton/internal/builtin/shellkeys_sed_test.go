package builtin

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// sedSafe are sed commands that only edit text; sedUnsafe run a command
// or read or write a file.
var (
	sedSafe = []string{
		"p", "d", "1d", "$!N", "/a/d", "/a/,/b/p", "s/a/b/g", "s|a|b|2p", "s/[0-9]*/x/",
		"y/abc/xyz/", ":a", "ba", "q", "2q5", "=", "h;G", "/x/I!d", `\%a%p`, "10~2p",
		"s/\\//x/", "s/a/\\n/", "s/w/e/", "bend", "s/[[:space:]]*$//", "/[]]/d",
	}
	sedUnsafe = []string{
		"e", "e rm x", "1e rm x", "w x", "/a/w x", "W x", "r /etc/shadow", "R x",
		"s/a/b/e", "s/a/b/w x", "s/a/b/gw x", "s/a/b/pe", "$!w x", "F;w x",
		"v;w x", "s/[/]/x/e", "s/[]/]/g#/e", "s/[^]/]/p;#/w x", "/[[:alpha:]/]/w x",
	}
)

// TestSedScriptRunsFindsEveryUnsafeCommand: a script of commands that
// only edit text, with one that runs a command or touches a file put
// anywhere among them, is found to run; one of safe commands only is
// not.
func TestSedScriptRunsFindsEveryUnsafeCommand(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cmds := rapid.SliceOfN(rapid.SampledFrom(sedSafe), 0, 6).Draw(t, "safe")
		sep := rapid.SampledFrom([]string{";", "\n", "\n\t"}).Draw(t, "sep")
		if sedScriptRuns(strings.Join(cmds, sep)) {
			t.Fatalf("%q of safe commands reads as running", strings.Join(cmds, sep))
		}
		at := rapid.IntRange(0, len(cmds)).Draw(t, "at")
		unsafe := rapid.SampledFrom(sedUnsafe).Draw(t, "unsafe")
		cmds = append(cmds[:at], append([]string{unsafe}, cmds[at:]...)...)
		if block := rapid.Bool().Draw(t, "block"); block {
			cmds = []string{"/x/{" + strings.Join(cmds, "\n") + "\n}"}
		}
		script := strings.Join(cmds, "\n")
		if !sedScriptRuns(script) {
			t.Fatalf("%q reads as only editing text", script)
		}
	})
}
