package main

import (
	"slices"
	"testing"
)

// pageStop is what stop.mjs read off the page.
type pageStop struct {
	Thread        string   `json:"thread"`
	Assistant     []string `json:"assistant"`
	Error         string   `json:"error"`
	Aborts        []int    `json:"aborts"`
	ConsoleErrors []string `json:"consoleErrors"`
}

// TestServeChatPageStopEndsRun: in a real headless Chromium, the page's
// Stop button stops the run on the server, a shell command in flight
// included, and the thread takes the next prompt as a new run at once.
// Stop only closed the page's stream before, and the run went on: the
// next prompt steered a run still waiting on its shell command.
func TestServeChatPageStopEndsRun(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "stop.mjs")
	script := writeScript(t, `{"replies": [
	  {"text": "I will wait a long while.", "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "sleep 600"}}]},
	  {"text": "Stopped, as asked."}
	]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--allow-shell", "--token", "page-secret")

	var got pageStop
	runPage(t, harness, chromium, "http://"+node.addr+"/#token=page-secret", &got)
	checks := []struct {
		what string
		ok   bool
	}{
		{"Stop asked the server to abort the run, which it did", slices.Equal(got.Aborts, []int{204})},
		{"the next prompt got its own answer", slices.Contains(got.Assistant, "Stopped, as asked.")},
		{"no error on the page or in its console", got.Error == "" && len(got.ConsoleErrors) == 0},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no; the page showed %+v", c.what, got)
		}
	}
}
