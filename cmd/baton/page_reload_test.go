package main

import (
	"slices"
	"strings"
	"testing"
)

// pageReload is what reload.mjs read off the page.
type pageReload struct {
	ThreadBefore  string   `json:"threadBefore"`
	ThreadAfter   string   `json:"threadAfter"`
	Assistant     []string `json:"assistant"`
	Tools         []string `json:"tools"`
	ShellOutput   string   `json:"shellOutput"`
	Error         string   `json:"error"`
	Sent          []string `json:"sent"`
	ConsoleErrors []string `json:"consoleErrors"`
}

// TestServeChatPageReloadKeepsRun: in a real headless Chromium, a page
// reloaded while its run waits for an approval comes back on the same
// thread, shows the waiting call with its Approve button, and the
// approval given there runs the call and the rest of the run, each text
// shown once. The token stays in the fragment: no request's URL or
// Referer carries it.
func TestServeChatPageReloadKeepsRun(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "reload.mjs")
	script := writeScript(t, `{"replies": [
	  {"text": "I will run a command.", "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "echo reload-ok"}}]},
	  {"text": "All done."}
	]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--allow-shell", "--token", "page-secret")

	var got pageReload
	runPage(t, harness, chromium, "http://"+node.addr+"/#token=page-secret", &got)
	checks := []struct {
		what string
		ok   bool
	}{
		{"the reloaded page is on the same thread", got.ThreadBefore != "" && got.ThreadAfter == got.ThreadBefore},
		{"the approval given after the reload ran the call", slices.Contains(got.Tools, "shell:output-available") && strings.Contains(got.ShellOutput, "reload-ok")},
		{"each of the run's texts is shown once, in order", slices.Equal(got.Assistant, []string{"I will run a command.", "All done."})},
		{"no token in any request's URL or Referer", !slices.ContainsFunc(got.Sent, func(s string) bool { return strings.Contains(s, "page-secret") })},
		{"no error on the page or in its console", got.Error == "" && len(got.ConsoleErrors) == 0},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no; the page showed %+v", c.what, got)
		}
	}
}
