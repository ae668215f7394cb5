package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batonrt/baton/wire"
	"github.com/google/go-cmp/cmp"
)

func writeTokens(t *testing.T, text string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	// WriteFile's mode is cut by the umask.
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// A tokens file holds "name token" or "name:token" lines, with comments
// and blank lines; a token may hold colons.
func TestReadTokens(t *testing.T) {
	path := writeTokens(t, "# the team\n\nalice "+aliceToken+"\n  bob:"+bobToken+"  \r\n\tcarol\t c:a:r:o:l-0123456789abcd\n", 0o600)
	got, err := readTokens(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.User{{Name: "alice", Token: aliceToken}, {Name: "bob", Token: bobToken}, {Name: "carol", Token: "c:a:r:o:l-0123456789abcd"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("users mismatch (-want +got):\n%s", diff)
	}
}

// A malformed line is refused with its number and what is wrong with it,
// never with the token it holds.
func TestReadTokensRefusesMalformedLines(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"no token", "# team\nalice\n", "line 2: want NAME TOKEN or NAME:TOKEN"},
		{"three fields", "alice " + aliceToken + " extra\n", "line 1: want NAME TOKEN or NAME:TOKEN"},
		{"empty name", ":" + aliceToken + "\n", "line 1: want NAME TOKEN or NAME:TOKEN"},
		{"empty token", "alice:\n", "line 1: want NAME TOKEN or NAME:TOKEN"},
		{"short token", "\nalice shorttoken\n", "line 2: user \"alice\": the token is 10 bytes, at least 16"},
		{"bad name", "al/ice " + aliceToken + "\n", "line 1: user name \"al/ice\": letters, digits, '.', '_' and '-' only, at most 32 bytes"},
		{"long name", strings.Repeat("a", 33) + " " + aliceToken + "\n", "at most 32 bytes"},
		{"control in token", "alice " + aliceToken + "\x7f\n", "line 1: user \"alice\": the token holds a character other than printable ASCII"},
		{"duplicate name", "alice " + aliceToken + "\nalice " + bobToken + "\n", "line 2: user \"alice\" is named on line 1 too"},
		{"duplicate token", "alice " + aliceToken + "\n#\nbob " + aliceToken + "\n", "line 3: user \"bob\" has the token of line 1"},
		{"no users", "# nobody yet\n\n", "names no users"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readTokens(writeTokens(t, tt.text, 0o600))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), aliceToken) {
				t.Errorf("error %v shows the token", err)
			}
		})
	}
}

// serve takes users from --tokens or $BATON_SERVE_TOKENS, warns when the
// file is readable by others, and refuses a tokens file with --token, a
// file it cannot use and, beyond loopback, still needs a token.
func TestServeTokensFlag(t *testing.T) {
	isolate(t)
	t.Setenv("BATON_SERVE_TOKEN", "")
	t.Setenv("BATON_SERVE_TOKENS", "")
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	good := writeTokens(t, "alice "+aliceToken+"\n", 0o600)
	args := func(extra ...string) []string {
		return append([]string{"serve", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir()}, extra...)
	}
	for _, tt := range []struct {
		name string
		env  string
		args []string
		code int
		want string
	}{
		{"with --token", "", []string{"--tokens", good, "--token", aliceToken}, exitUsage, "--token and --tokens: give one"},
		{"env with --token", good, []string{"--token", aliceToken}, exitUsage, "--token and --tokens: give one"},
		{"missing file", "", []string{"--tokens", filepath.Join(t.TempDir(), "none")}, 1, "serve: --tokens"},
		{"malformed", "", []string{"--tokens", writeTokens(t, "alice\n", 0o600)}, 1, "line 1: want NAME TOKEN or NAME:TOKEN"},
		{"namespace leaves no room", "", []string{"--tokens", writeTokens(t, strings.Repeat("a", 32)+" "+aliceToken+"\n", 0o600), "--namespace", strings.Repeat("n", 20)}, exitUsage, "leaves thread ids"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("BATON_SERVE_TOKENS", tt.env)
			code, _, stderr := cli(t, "", args(tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d %q, want %d containing %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

// $BATON_SERVE_TOKENS names the file as --tokens does; one that other
// users of the machine may read is served, with a warning.
func TestServeTokensFromEnvWarnsWhenReadable(t *testing.T) {
	isolate(t)
	t.Setenv("BATON_SERVE_TOKEN", "")
	t.Setenv("BATON_SERVE_TOKENS", writeTokens(t, "alice "+aliceToken+"\n", 0o644))
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	out, errOut := newSyncBuffer(), newSyncBuffer()
	a := &app{stdout: out, stderr: errOut}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- a.serve(ctx, []string{"--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(), "--addr", "127.0.0.1:0"})
	}()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		http.DefaultClient.CloseIdleConnections()
	}()
	out.waitFor(t, "serving AG-UI on http://")
	addr, _, _ := strings.Cut(strings.SplitAfter(out.String(), "serving AG-UI on ")[1], " ")
	if !strings.Contains(errOut.String(), "warning: the tokens file") || !strings.Contains(errOut.String(), "is readable by other users") {
		t.Errorf("stderr %q lacks the warning", errOut.String())
	}
	if code, body := call(t, aliceToken, http.MethodGet, addr+"t/messages", ""); code != http.StatusOK {
		t.Errorf("alice's token: %d %q", code, body)
	}
	if code, body := call(t, "", http.MethodGet, addr+"t/messages", ""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d %q, want 401", code, body)
	}
}
