package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// chromiumHarness returns the named node script under testdata/browser,
// which drives the chat page, and the browser it drives; without them the
// test skips, except under CI.
func chromiumHarness(t *testing.T, name string) (script, chromium string) {
	t.Helper()
	script, _ = filepath.Abs(filepath.Join("testdata", "browser", name))
	_, pwErr := os.Stat(filepath.Join("testdata", "browser", "node_modules", "playwright-core"))
	_, nodeErr := exec.LookPath("node")
	chromium, chromeErr := exec.LookPath("chromium")
	if pwErr != nil || nodeErr != nil || chromeErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node, chromium or playwright-core missing under CI (%v, %v, %v): .ci/run installs them", nodeErr, chromeErr, pwErr)
		}
		t.Skip("needs node, Debian's chromium and npm ci --prefix cmd/baton/testdata/browser")
	}
	return script, chromium
}

// runPage runs a harness script on the page at url and decodes the JSON
// it prints into v.
func runPage(t *testing.T, harness, chromium, url string, v any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", harness, url)
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("the page harness %s failed: %v\n%s", filepath.Base(harness), err, stderr)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("harness output %q: %v", out, err)
	}
}

// pageRun is what the harness read off the page.
type pageRun struct {
	User          []string `json:"user"`
	Assistant     []string `json:"assistant"`
	Tools         []string `json:"tools"`
	Bold          int      `json:"bold"`
	Error         string   `json:"error"`
	Lengths       []int    `json:"lengths"`
	ShellOutput   string   `json:"shellOutput"`
	Asked         string   `json:"asked"`
	ConsoleErrors []string `json:"consoleErrors"`
}

// TestServeChatPageInChromium: the page serve offers at / works in a real
// headless Chromium: a typed prompt starts a run whose text streams in,
// the shell call waits for the Approve button and then shows its output,
// the model's question is answered in the page, and markup the user or
// the model wrote is shown as text. The server requires a token, which
// the page takes from its URL's fragment: the one token of --token, or a
// user's of --tokens, whose thread is then kept under the user's name.
func TestServeChatPageInChromium(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "chat.mjs")
	for _, tt := range []struct {
		name, token, user string
		flags             func(t *testing.T) []string
	}{
		{"one token", "page-secret", "", func(*testing.T) []string { return []string{"--token", "page-secret"} }},
		{"a user's token", bobToken, "bob", func(t *testing.T) []string {
			return []string{"--tokens", writeTokens(t, "alice "+aliceToken+"\nbob "+bobToken+"\n", 0o600)}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			got := chatPageRun(t, harness, chromium, dir, tt.token, tt.flags(t)...)
			if tt.user == "" {
				return
			}
			_, stdout, _ := cli(t, "", "sessions", "--store", dir)
			if !strings.Contains(stdout, defaultNamespace+tt.user+"/page-") || len(got.User) == 0 {
				t.Errorf("the page's session is not %s's:\n%s", tt.user, stdout)
			}
		})
	}
}

// chatPageRun runs chat.mjs on a page served from store dir with flags,
// given token in its fragment, and checks what it showed.
func chatPageRun(t *testing.T, harness, chromium, dir, token string, flags ...string) pageRun {
	t.Helper()
	script := writeScript(t, `{"replies": [
	  {"text": "I will run a command.", "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "echo page-ok"}}]},
	  {"text": "One question.", "tool_calls": [{"id": "q1", "name": "ask_human", "arguments": {"question": "Which city?"}}]},
	  {"text": "Going to Bergen, as you said, <i>with</i> care and in good time.", "chunk_delay": "15ms"}
	]}`)
	node := startNode(t, append([]string{"--store", dir, "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--allow-shell"}, flags...)...)

	// The page reads the token from its fragment and sends it with every
	// request; without it each would be refused.
	var got pageRun
	runPage(t, harness, chromium, "http://"+node.addr+"/#token="+token, &got)
	checks := []struct {
		what string
		ok   bool
	}{
		{"the prompt is shown as typed, markup as text", slices.Equal(got.User, []string{"check the page <b>now</b>"}) && got.Bold == 0},
		{"the model's three texts are shown in order", slices.Equal(got.Assistant, []string{"I will run a command.", "One question.", "Going to Bergen, as you said, <i>with</i> care and in good time."})},
		{"the shell ran after its approval and its output is shown", slices.Contains(got.Tools, "shell:output-available") && strings.Contains(got.ShellOutput, "page-ok")},
		{"the question was shown and answered", got.Asked == "Which city?" && slices.Contains(got.Tools, "ask_human:output-available")},
		{"the last reply streamed in over several updates", len(got.Lengths) >= 4},
		{"no error on the page or in its console", got.Error == "" && len(got.ConsoleErrors) == 0},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no; the page showed %+v", c.what, got)
		}
	}
	return got
}
