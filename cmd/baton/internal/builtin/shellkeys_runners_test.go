package builtin

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// innocentRunners are lines a user may well answer "always" for; the
// lines of TestShellKeysOfRunnersNameWhatTheyRun must not be covered by
// their keys.
var innocentRunners = []string{
	"ls", "cat x", "awk '{print $1}' f", "python -c 'print(1)'", "taskset -c 0 ls",
	"flock /tmp/l ls", "watch ls", "ssh host uptime", "perl -ne 'print' f",
	"node -e 'console.log(1)'", "make test", "echo x", "doas ls", "sudo ls",
}

// TestShellKeysOfRunnersNameWhatTheyRun: programs that run a command
// given as their arguments, or code given inline, are keyed by what they
// run (want), or have no keys (nil) where that cannot be named; either
// way the keys of innocentRunners do not cover the line.
func TestShellKeysOfRunnersNameWhatTheyRun(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		// wrappers that run their arguments
		{"flock /tmp/l rm -rf x", []string{">x", "flock", "rm"}},
		{"flock -w 5 -x /tmp/l rm -rf x", []string{">x", "flock", "rm"}},
		{"flock -w5 --nonblock /tmp/l rm -rf x", []string{">x", "flock", "rm"}},
		{"flock /tmp/l -c 'rm -rf x'", []string{">x", "flock", "rm"}},
		{"flock -s /tmp/l --command 'ls; rm -rf x'", []string{">x", "flock", "ls", "rm"}},
		{"flock -c 'rm -rf x' /tmp/l", nil},
		{"flock -q /tmp/l rm -rf x", nil},
		{"taskset -c 0 rm -rf x", []string{">x", "rm", "taskset"}},
		{"taskset 0x1 rm -rf x", []string{">x", "rm", "taskset"}},
		{"taskset -ac 0-3 rm -rf x", []string{">x", "rm", "taskset"}},
		{"watch 'ls; rm -rf x'", []string{">x", "ls", "rm", "watch"}},
		{"watch -n 1 rm -rf x", []string{">x", "rm", "watch"}},
		{"watch -n1 -d ls '&&' rm -rf x", []string{">x", "ls", "rm", "watch"}},
		{"watch -x rm -rf x", []string{">x", "rm", "watch"}},
		{"watch --interval=2 -- rm -rf x", []string{">x", "rm", "watch"}},
		{"watch -k rm -rf x", nil},
		{"catchsegv rm -rf x", []string{">x", "catchsegv", "rm"}},
		{"chronic -v rm -rf x", []string{">x", "chronic", "rm"}},
		{"echo rm x | xargs watch", nil},
		{"echo rm x | xargs flock /tmp/l", nil},
		{"doas -s", nil},
		{"echo 'rm -rf x' | doas -s", nil},
		{"doas -u root -s", nil},
		{"sudo -R /tmp/root ls", nil},
		{"sudo --chroot=/tmp/root ls", nil},
		{"env -S 'rm -rf x'", nil},
		{"command rm -rf x", []string{">x", "command", "rm"}},
		{"builtin eval 'rm -rf x'", []string{">x", "builtin", "eval", "rm"}},
		// runners whose commands or root the line cannot name
		{"chroot /tmp/root ls", nil},
		{"su -c 'rm -rf x'", nil},
		{"su root -c 'rm -rf x'", nil},
		{"runuser -u root -- rm -rf x", nil},
		{"ssh host rm -rf x", nil},
		{"ssh -o ProxyCommand='rm -rf x' host uptime", nil},
		{"parallel rm ::: x", nil},
		{"echo x | parallel rm", nil},
		{"nsenter -t 1 -m ls", nil},
		{"unshare -r rm -rf x", nil},
		{"systemd-run rm -rf x", nil},
		{"script -c 'rm -rf x'", nil},
		{"strace -f rm -rf x", nil},
		{"ltrace rm -rf x", nil},
		{"valgrind rm -rf x", nil},
		{"perf stat rm -rf x", nil},
		{"gdb -batch -ex 'shell rm -rf x'", nil},
		{"prlimit --nofile=10 rm -rf x", nil},
		{"numactl -N 0 rm -rf x", nil},
		{"cpulimit -l 50 rm -rf x", nil},
		{"firejail rm -rf x", nil},
		{"bwrap --bind / / rm -rf x", nil},
		{"sudo strace rm -rf x", nil},
		// interpreters' inline code is keyed by the whole call
		{"awk 'BEGIN{system(\"rm -rf x\")}'", []string{`awk 'BEGIN{system("rm -rf x")}'`}},
		{"awk '{print $1 | \"sh\"}' f", []string{`awk '{print $1 | "sh"}' f`}},
		{"awk '{print > \"/tmp/x\"}' f", []string{`awk '{print > "/tmp/x"}' f`}},
		{"gawk '@load \"x\"; BEGIN{}'", []string{`gawk '@load "x"; BEGIN{}'`}},
		{"gawk -f evil.awk '{print $1}' f", []string{`gawk -f evil.awk '{print $1}' f`}},
		{"awk 'BEGIN{system(ARGV[1])}' 'rm -rf x'", []string{`awk 'BEGIN{system(ARGV[1])}' 'rm -rf x'`}},
		{"ls | awk '{system($1)}'", []string{`awk '{system($1)}'`, "ls"}},
		{"busybox awk 'BEGIN{system(\"rm -rf x\")}'", []string{`awk 'BEGIN{system("rm -rf x")}'`, "busybox"}},
		{"echo x | xargs awk", nil},
		{"find . -exec awk {} \\;", nil},
		{"perl -e 'system(\"rm -rf x\")'", []string{`perl -e 'system("rm -rf x")'`}},
		{"perl -ne 'system $_' f", []string{"perl -ne 'system $_' f"}},
		{"perl '-Mstrict;system(\"rm -rf x\")' x.pl", []string{`perl '-Mstrict;system("rm -rf x")' x.pl`}},
		{"python -c 'import os; os.system(\"rm -rf x\")'", []string{`python -c 'import os; os.system("rm -rf x")'`}},
		{"python3 -Ic 'print(1)'", []string{"python3 -Ic 'print(1)'"}},
		{"python -W ignore -c 'print(1)'", []string{"python -W ignore -c 'print(1)'"}},
		{"sudo python -c 'print(2)'", []string{"python -c 'print(2)'", "sudo"}},
		{"echo x | xargs python -c 'print(1)'", nil},
		{"ruby -e 'system(\"rm -rf x\")'", []string{`ruby -e 'system("rm -rf x")'`}},
		{"node -e 'require(\"fs\").rmSync(\"x\")'", []string{`node -e 'require("fs").rmSync("x")'`}},
		{"node -pe 'process.exit(1)'", []string{"node -pe 'process.exit(1)'"}},
		{"node --eval='1'", []string{"node '--eval=1'"}},
		{"php -r 'system(\"rm -rf x\");'", []string{`php -r 'system("rm -rf x");'`}},
		{"lua -e 'os.execute(\"rm -rf x\")'", []string{`lua -e 'os.execute("rm -rf x")'`}},
		{"Rscript -e 'system(\"rm -rf x\")'", []string{`Rscript -e 'system("rm -rf x")'`}},
		{"make --eval='x: ; rm -rf y' x", []string{"make '--eval=x: ; rm -rf y' x"}},
		{"make CC='rm -rf x' all", []string{"make 'CC=rm -rf x' all"}},
		{"python -c \"$CODE\"", nil},
		{"cd sub && ./venv/bin/python -c 'print(1)'", nil},
	}
	var allowed []string
	for _, line := range innocentRunners {
		keys, err := keysOf(line)
		if err != nil {
			keys = []string{line} // approved as itself
		}
		allowed = append(allowed, keys...)
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			if err == nil && !slices.ContainsFunc(got, func(k string) bool { return !slices.Contains(allowed, k) }) {
				t.Errorf("keys %q are all allowed by %q, whose keys are %q", got, innocentRunners, allowed)
			}
		})
	}
}

// TestShellKeysOfRunnersInnocentLines: the innocent lines themselves,
// and everyday lines of the same programs, keep plain keys where what
// they run is named.
func TestShellKeysOfRunnersInnocentLines(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"awk '{print $1}' f", []string{"awk"}},
		{"awk -F: -v OFS=, '{print $1, $3 > 100}' /etc/passwd", []string{`awk -F: -v 'OFS=,' '{print $1, $3 > 100}' /etc/passwd`}},
		{"ls -l | awk -F: '{n += $5} END {print n}'", []string{"awk", "ls"}},
		{"python -c 'print(1)'", []string{"python -c 'print(1)'"}},
		{"perl -ne 'print' f", []string{"perl -ne print f"}},
		{"taskset -c 0 ls", []string{"ls", "taskset"}},
		{"taskset -p 1234", []string{"taskset"}},
		{"flock /tmp/l ls", []string{"flock", "ls"}},
		{"flock 9", []string{"flock"}},
		{"watch ls", []string{"ls", "watch"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("keys mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
