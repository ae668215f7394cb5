package builtin

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShellKeysDoNotLetAnInnocentApprovalCoverAnother: each line does
// something its plain command names do not say (sets PATH without an
// assignment word, runs a file, a computed command or one behind another
// program). A user who answered "always" for the innocent lines beside it
// has the keys of those lines allowlisted; the line's keys must not all
// be among them, and must be exactly want (nil: no keys, so the line is
// approved only as itself).
func TestShellKeysDoNotLetAnInnocentApprovalCoverAnother(t *testing.T) {
	tests := []struct {
		line     string
		innocent []string
		want     []string
	}{
		// variables set without an assignment word
		{"read PATH <<< /tmp/x; ls", []string{"read x", "ls"}, []string{"PATH=*", "ls", "read"}},
		{"read -r -a PATH <<< /tmp/x; ls", []string{"read -r -a x", "ls"}, []string{"PATH=*", "ls", "read"}},
		{"read -aPATH <<< /tmp/x; ls", []string{"read -r x", "ls"}, []string{"PATH=*", "ls", "read"}},
		{"read -p 'a b' -d x PATH", []string{"read -p y x"}, []string{"PATH=*", "read"}},
		{"getopts a PATH -a", []string{"getopts a x"}, []string{"OPTARG=*", "OPTIND=*", "PATH=*", "getopts"}},
		{"printf -v PATH /tmp/x; ls", []string{"printf %s x", "ls"}, []string{"PATH=*", "ls", "printf"}},
		{"printf -vPATH /tmp/x", []string{"printf %s x"}, []string{"PATH=*", "printf"}},
		{"printf -v 'a[$(rm -rf x)]' y", []string{"printf %s x"}, nil},
		{": ${PATH:=/tmp/x}; ls", []string{": ${y:=1}", "ls"}, []string{":", "PATH=/tmp/x", "ls"}},
		{"echo ${LD_PRELOAD=$X} | ls", []string{"echo", "ls"}, []string{"LD_PRELOAD=*", "echo", "ls"}},
		{"echo ${!n:=/tmp/x}", []string{"echo"}, nil},
		{"echo $((PATH=1)) $((i++))", []string{"echo"}, []string{"PATH=*", "echo", "i=*"}},
		{"let PATH=1", []string{"let i=1"}, []string{"PATH=*", "let"}},
		{"declare \"PATH=/tmp/x\"; ls", []string{"declare -i n", "ls"}, []string{"PATH=/tmp/x", "declare", "ls"}},
		{"export 'LD_PRELOAD=./x.so'", []string{"export A"}, []string{"LD_PRELOAD=./x.so", "export"}},
		{"export \"$V\"", []string{"export A"}, nil},
		{"declare -n r=PATH; r=/tmp/x; ls", []string{"declare -i r=1", "r=/tmp/x", "ls"}, nil},
		{"local -n r; r=PATH", []string{"local r", "r=PATH"}, nil},
		{"typeset -l PATH; PATH=/TMP/X", []string{"typeset -l y", "PATH=/TMP/X"}, []string{"PATH=*", "PATH=/TMP/X", "typeset"}},
		{"readonly -a x; mapfile -t PATH <<< /tmp/x; ls", []string{"readonly -a x", "mapfile -t y", "ls"}, []string{"PATH=*", "ls", "mapfile", "readonly"}},
		{"readarray PATH", []string{"readarray y"}, []string{"PATH=*", "readarray"}},
		{"mapfile -C 'rm -rf x' -c 1 y < f", []string{"mapfile y"}, nil},
		{"builtin read PATH; ls", []string{"builtin read x", "ls"}, []string{"PATH=*", "builtin", "ls", "read"}},
		{"command eval 'printf -v PATH x'", []string{"command eval 'printf x'"}, []string{"PATH=*", "command", "eval", "printf"}},
		{"sleep 1 & wait -p PATH $!", []string{"sleep 1 & wait $!"}, []string{"PATH=*", "sleep", "wait"}},
		{"read -a", []string{"read x"}, []string{"REPLY=*", "read"}},
		{"unset PATH; ls", []string{"unset x", "ls"}, []string{"PATH=*", "ls", "unset"}},
		{"ls {fd}> f", []string{"ls > f"}, []string{">f", "fd=*", "ls"}},
		{"hash -p /tmp/x/ls ls; ls", []string{"hash -r", "ls"}, nil},
		{"enable -f ./x.so ls; ls", []string{"enable -n echo", "ls"}, nil},
		// files run as shell lines
		{". ./evil.sh", []string{". ./venv/bin/activate"}, []string{".", ". ./evil.sh"}},
		{"source evil.sh", []string{"source venv/bin/activate"}, []string{". evil.sh", "source"}},
		{". /dev/stdin <<EOF\nrm -rf x\nEOF", []string{". /dev/stdin <<EOF\nls\nEOF"}, nil},
		{"source \"$F\"", []string{"source venv/bin/activate"}, nil},
		// words the shell unquotes before running them
		{"eval \"echo \\$(rm -rf x)\"", []string{"eval echo hi"}, []string{">x", "echo", "eval", "rm"}},
		{"sh -c \"echo \\`rm -rf x\\`\"", []string{"sh -c 'echo hi'"}, []string{">x", "echo", "rm", "sh"}},
		{"alias ls=\"echo \\$(rm -rf x)\"; ls", []string{"alias ls='echo hi'", "ls"}, []string{">x", "alias", "echo", "ls", "rm"}},
		{"bash -c -- 'rm -rf x'", []string{"bash -c -- ls"}, []string{">x", "bash", "rm"}},
		{"'ls -la'", []string{"ls"}, nil},
		{"'PATH=/tmp/x'", []string{"ls"}, nil},
		{"'>f' x", []string{"ls"}, nil},
		{"{rm,-rf,x}", []string{"ls"}, nil},
		{"env {PATH=/tmp/x,ls}", []string{"env A=1 ls"}, nil},
		{"/bin/l? -la", []string{"ls"}, nil},
		{"$0 -c 'rm -rf x'", []string{"ls"}, nil},
		{"${!x} -rf x", []string{"ls"}, nil},
		// commands run by other programs
		{"env PATH=/tmp/x ls", []string{"env A=1 ls"}, []string{"PATH=/tmp/x", "env", "ls"}},
		{"sudo LD_PRELOAD=./x.so ls", []string{"sudo ls"}, []string{"LD_PRELOAD=./x.so", "ls", "sudo"}},
		{"nice A=1 ls", []string{"nice ls"}, nil},
		{"echo 'rm -rf x' | sudo -s", []string{"echo hi | sudo ls"}, nil},
		{"sudo -i rm -rf x", []string{"sudo -i ls"}, nil},
		{"echo rm | xargs -I ls ls -rf x", []string{"echo x | xargs -I ls ls x"}, nil},
		{"echo rm | xargs -i {} -rf x", []string{"echo x | xargs -i ls {}"}, nil},
		{"echo 'rm -rf x' | xargs -I X sh -c X", []string{"echo x | xargs -I X sh -c ls"}, nil},
		{"echo rm x | xargs env", []string{"echo x | xargs env ls"}, nil},
		{"echo 5 rm x | xargs timeout", []string{"echo x | xargs timeout 5 ls"}, nil},
		{"echo 'rm -rf x' | xargs sh -c", []string{"echo x | xargs sh -c ls"}, nil},
		{"echo -exec rm {} + | xargs find .", []string{"echo x | xargs find . -name"}, nil},
		{"find . -name f -exec {} \\;", []string{"find . -exec ls {} \\;"}, nil},
		{"find . -exec sh -c {} \\;", []string{"find . -exec sh -c ls \\;"}, nil},
		{"find . -exec env {} +", []string{"find . -exec env ls {} +"}, nil},
		{"ls() { rm -rf x; }; ls", []string{"ls"}, []string{">x", "ls", "rm"}},
		{"ls > ~/.bashrc", []string{"ls", "ls > out.txt"}, []string{">~/.bashrc", "ls"}},
		{"ls > >(sh)", []string{"ls"}, nil},
		{"cat <(rm -rf x)", []string{"cat x"}, []string{">x", "cat", "rm"}},
		// a bracket expression whose first character is "]" (or "^]")
		// holds the delimiter for GNU and BSD sed alike
		{"echo / | sed 's/[]/]/g;a;rm -rf x;#/e'", []string{"echo x", "sed s/a/b/g"},
			[]string{"echo", `sed 's/[]/]/g;a;rm -rf x;#/e'`}},
		{"sed 's/[^]/]/g#/w /tmp/x' f", []string{"sed s/a/b/g f"}, []string{`sed 's/[^]/]/g#/w /tmp/x' f`}},
		{"sed '/[]/]/p#/w /tmp/x' f", []string{"sed -n /a/p f"}, []string{`sed '/[]/]/p#/w /tmp/x' f`}},
		// git commands that run a command given on the line
		{"printf 'connect x\\n' | git remote-ext x 'rm -rf x'", []string{"printf x", "git status"},
			[]string{`git remote-ext x 'rm -rf x'`, "printf"}},
		{"git instaweb --httpd=./evil.sh", []string{"git status"}, []string{"git instaweb '--httpd=./evil.sh'"}},
		{"git daemon --access-hook=./evil.sh", []string{"git status"}, []string{"git daemon '--access-hook=./evil.sh'"}},
		// a computed word may be an option that runs a command, before
		// git's command or after one that has such options
		{"git $X log", []string{"git log"}, nil},
		{"git -c \"$X\" commit -m y", []string{"git commit -m y"}, nil},
		{"git rebase \"$(cat x)\" main", []string{"git rebase main", "cat x"}, nil},
		{"git fetch \"$U\"", []string{"git fetch"}, nil},
		// [ is test, whose -v evaluates a subscript
		{"[ -v 'a[$(rm -rf x)]' ]", []string{"[ -v x ]"}, nil},
		// a call keyed as itself names its files from the current folder
		{"cd .. && sed -f x.sed f", []string{"cd .. && ls", "sed -f x.sed f"}, nil},
		{"cd .. && awk -f x.awk f", []string{"cd .. && ls", "awk -f x.awk f"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := keysOf(tt.line)
			checkKeys(t, tt.want, got, err)
			var allowed []string
			for _, line := range tt.innocent {
				keys, err := keysOf(line)
				if err != nil {
					keys = []string{line} // approved as itself
				}
				allowed = append(allowed, keys...)
			}
			if err == nil && !slices.ContainsFunc(got, func(k string) bool { return !slices.Contains(allowed, k) }) {
				t.Errorf("keys %q are all allowed by %q, whose keys are %q", got, tt.innocent, allowed)
			}
		})
	}
}

func keysOf(line string) ([]string, error) {
	args, _ := json.Marshal(shellArgs{Command: line})
	return shellKeys(args)
}

// TestShellKeysOfPlainCommandsStayTheSame: lines users approve every day
// keep the keys they had, so an "always" given before still holds.
func TestShellKeysOfPlainCommandsStayTheSame(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"ls -la", []string{"ls"}},
		{"l\\s -la", []string{"ls"}},
		{"'l's -la", []string{"ls"}},
		{"git status && go test ./...", []string{"git", "go"}},
		{"./gradlew build", []string{"./gradlew"}},
		{"find . -name '*.go' -exec gofmt -l {} +", []string{"find", "gofmt"}},
		{"find . -name '*.go' | xargs -I {} gofmt -l {}", []string{"find", "gofmt", "xargs"}},
		{"echo \"a \\\"b\\\"\" > out.txt", []string{">out.txt", "echo"}},
		{"sudo -u root make install", []string{"make", "sudo"}},
		{"sleep 1 & wait $!", []string{"sleep", "wait"}},
		{"printf -v", []string{"printf"}},
		{"printf '%s\\n' \"$x\" | sort", []string{"printf", "sort"}},
		{"while read -r line; do echo \"$line\"; done < f", []string{"echo", "line=*", "read"}},
		{"export GOFLAGS=-mod=mod", []string{"GOFLAGS=-mod=mod", "export"}},
		{"i=0; i=$((i+1)); echo $i", []string{"echo", "i=*", "i=0"}},
		{"for i in 1 2 3; do echo $((i * 2)); done", []string{"echo", "i=*"}},
		{"while read -r line; do echo \"${#line}: $line\"; done < f", []string{"echo", "line=*", "read"}},
		{"set -euo pipefail; make", []string{"make", "set"}},
		{"test -n \"$x\" && test $# -eq 0", []string{"test"}},
		{"awk '{print $1}' f", []string{"awk"}},
		{"ps aux | awk -F' ' -v n=2 '$3 == 1 {print $n}'", []string{"awk", "ps"}},
		{"find . -name '*.log' -exec awk 'END {print NR}' {} +", []string{"awk", "find"}},
		{"python script.py --check", []string{"python script.py"}},
		{"python3 -m pytest -q tests", []string{"python3 -m pytest"}},
		{"node app.js", []string{"node app.js"}},
		{"perl script.pl", []string{"perl script.pl"}},
		{"make -j4 test", []string{"make"}},
		{"sed -n 1p f", []string{"sed"}},
		{"command -v go", []string{"command", "go"}},
		{"sudo -u root -- make install", []string{"make", "sudo"}},
		{"sed -i 's/a/b/g' f", []string{">f", "sed"}},
		{"sed -n '/^func /p' *.go", []string{"sed"}},
		{"rsync -a src/ dst/", []string{">dst", "rsync"}},
		{"git status", []string{"git"}},
		{"git log --oneline -n 5", []string{"git"}},
		{"git diff HEAD~1 -- f", []string{"git"}},
		{"tar -czf a.tgz d", []string{">a.tgz", "tar"}},
		{"zip -r a.zip d", []string{"zip"}},
		{"man ls", []string{"man"}},
		{"find . -name '*.tmp' -print", []string{"find"}},
		{"bash --version", []string{"bash"}},
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
