package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Bad input to the built command ends in one line on stderr naming the
// problem (a usage error adds where to read the usage) and a non-zero
// exit, never a panic or a Go stack trace, and nothing on stdout.
func TestBinaryBadInput(t *testing.T) {
	skipShort(t, "starts a process for each case")
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "real")
	damaged := t.TempDir()
	fixedSession(t, damaged, "s")
	damageLog(t, damaged, "s")
	file := writeScript(t, "not a folder")
	missing := filepath.Join(t.TempDir(), "nope")
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	badAgents := writeScript(t, "{")
	badTokens := writeScript(t, "alice\n")
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	folder := t.TempDir()
	usage := func(cmd, msg string) string {
		return "baton: " + msg + "\nrun 'baton " + cmd + " --help' for usage\n"
	}
	notAFolder := "baton: store " + file + " is not a folder\n"
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown command", []string{"frobnicate"}, exitUsage, "baton: unknown command \"frobnicate\"\nrun 'baton --help' for usage\n"},
		{"a flag before the command", []string{"--store", dir, "sessions"}, exitUsage, "baton: flag --store before a command: give the command first, then its flags\nrun 'baton --help' for usage\n"},
		{"help on an unknown command", []string{"help", "frobnicate"}, exitUsage, "baton: unknown command \"frobnicate\"\nrun 'baton --help' for usage\n"},
		{"unknown flag", []string{"replay", "--nope", "real"}, exitUsage, usage("replay", "flag provided but not defined: -nope")},
		{"missing session", []string{"replay", "--store", dir}, exitUsage, usage("replay", "replay: missing argument")},
		{"missing prompt", []string{"run", "--store", dir}, exitUsage, usage("run", "run: missing argument")},
		{"missing node", []string{"fork", "--store", dir, "real"}, exitUsage, usage("fork", "fork: missing argument")},
		{"replay of no such session", []string{"replay", "--store", dir, "ghost"}, exitFailure, "baton: unknown session \"ghost\" (see 'baton sessions')\n"},
		{"session id with a path", []string{"log", "--store", dir, "../real"}, exitFailure, "baton: unknown session \"../real\" (see 'baton sessions')\n"},
		{"store missing", []string{"replay", "--store", missing, "real"}, exitFailure, "baton: no store at " + missing + "\n"},
		{"sessions in a file", []string{"sessions", "--store", file}, exitFailure, notAFolder},
		{"log in a file", []string{"log", "--store", file, "real"}, exitFailure, notAFolder},
		{"replay in a file", []string{"replay", "--store", file, "real"}, exitFailure, notAFolder},
		{"fork in a file", []string{"fork", "--store", file, "real", "1"}, exitFailure, notAFolder},
		{"export from a file", []string{"export", "--store", file}, exitFailure, notAFolder},
		{"import into a file", []string{"import", "--store", file, script}, exitFailure, notAFolder},
		{"demo into a file", []string{"demo", "--store", file}, exitFailure, notAFolder},
		{"run into a file", []string{"run", "--provider", "scripted", "--script", script, "--store", file, "hi"}, exitFailure, notAFolder},
		{"serve from a file", []string{"serve", "--provider", "scripted", "--script", script, "--addr", "127.0.0.1:0", "--store", file}, exitFailure, notAFolder},
		{"serve on a taken port", []string{"serve", "--provider", "scripted", "--script", script, "--addr", addr, "--store", dir}, exitFailure, "baton: serve: listen tcp " + addr + ": bind: address already in use\n"},
		{"serve on an address without a port", []string{"serve", "--provider", "scripted", "--script", script, "--addr", "localhost", "--store", dir}, exitUsage, usage("serve", "serve: --addr localhost: missing port in address (want HOST:PORT, such as 127.0.0.1:8080)")},
		{"serve on a port out of range", []string{"serve", "--provider", "scripted", "--script", script, "--addr", "127.0.0.1:99999", "--store", dir}, exitUsage, usage("serve", "serve: --addr 127.0.0.1:99999: invalid port (want HOST:PORT, such as 127.0.0.1:8080)")},
		{"export into a folder", []string{"export", "--store", dir, "-o", folder}, exitFailure, "baton: export: -o " + folder + " is a folder: name a file\n"},
		{"import a folder", []string{"import", "--store", dir, folder}, exitFailure, "baton: import: " + folder + " is a folder: name a file baton export wrote\n"},
		{"bad agents file", []string{"run", "--provider", "scripted", "--script", script, "--store", dir, "--agents", badAgents, "hi"}, exitFailure, "baton: agents file " + badAgents + ": unexpected EOF\n"},
		{"bad tokens file", []string{"serve", "--provider", "scripted", "--script", script, "--store", dir, "--tokens", badTokens}, exitFailure, "baton: serve: --tokens " + badTokens + ": line 1: want NAME TOKEN or NAME:TOKEN\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := asBuilt(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if diff := cmp.Diff(tt.stderr, stderr); diff != "" {
				t.Errorf("stderr mismatch (-want +got):\n%s", diff)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
		})
	}
}

// A damaged session is named, with what the store found, on one line.
func TestBinaryDamagedSession(t *testing.T) {
	skipShort(t, "starts a process for each case")
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "s")
	damageLog(t, dir, "s")
	for _, args := range [][]string{{"log", "s"}, {"replay", "s"}, {"fork", "s", "1"}} {
		t.Run(args[0], func(t *testing.T) {
			code, _, stderr := asBuilt(t, "", append(args, "--store", dir)...)
			if code != exitFailure {
				t.Errorf("exit %d, want %d", code, exitFailure)
			}
			if !strings.HasPrefix(stderr, `baton: session "s": the store is damaged: `) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr is not one line naming the damage: %q", stderr)
			}
		})
	}
}

// An unreadable store folder is an error naming it, not an empty store.
func TestBinaryUnreadableStore(t *testing.T) {
	skipShort(t, "starts a process")
	var under []string
	if os.Geteuid() == 0 {
		// Root reads any folder: its process gives up the capabilities
		// that let it (setpriv, from util-linux).
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("no setpriv under CI, run as root: the store's folder cannot be made unreadable")
			}
			t.Skip("run as root, needs setpriv (util-linux) to read the store as a user would")
		}
		under = []string{setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--"}
	}
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "s")
	if err := os.Chmod(dir, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	code, stdout, stderr := asBuiltUnder(t, under, "", "sessions", "--store", dir)
	if code != exitFailure || stdout != "" || !strings.HasPrefix(stderr, "baton: ") || !strings.Contains(stderr, "permission denied") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// Help is asked for, so it goes to stdout and exits 0, for the command
// and each subcommand, with -h and --help alike.
func TestBinaryHelp(t *testing.T) {
	skipShort(t, "starts a process for each case")
	isolate(t)
	type helpCase struct {
		args []string
		want string
	}
	cases := []helpCase{{[]string{"--help"}, "Usage: baton <command>"}, {[]string{"-h"}, "Usage: baton <command>"}, {[]string{"help"}, "Usage: baton <command>"}, {[]string{"help", "help"}, "Usage: baton <command>"}, {[]string{"help", "--help"}, "Usage: baton <command>"}}
	for _, c := range commands() {
		want := "Usage: baton " + c.name + " "
		cases = append(cases, helpCase{[]string{c.name, "--help"}, want}, helpCase{[]string{c.name, "-h"}, want}, helpCase{[]string{"help", c.name}, want})
	}
	for _, tt := range cases {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := asBuilt(t, "", tt.args...)
			if code != exitOK || stderr != "" || !strings.Contains(stdout, tt.want) {
				t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
			}
		})
	}
}

// An error whose text spans lines, such as a database driver's list of
// the addresses it tried, is folded onto the one line of stderr.
func TestBinaryErrorOnOneLine(t *testing.T) {
	skipShort(t, "starts a process")
	isolate(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "postgres://nobody@" + ln.Addr().String() + "/x?connect_timeout=5"
	ln.Close() // nobody serves there now: the connection is refused
	code, stdout, stderr := asBuilt(t, "", "sessions", "--store", url)
	if code != exitFailure || stdout != "" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	if want := "baton: open store " + url + ": "; !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "\t") {
		t.Errorf("stderr is not one line starting %q:\n%s", want, stderr)
	}
}
