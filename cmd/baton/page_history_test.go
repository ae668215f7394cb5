package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pageShown is the conversation a page showed.
type pageShown struct {
	User      []string `json:"user"`
	Assistant []string `json:"assistant"`
	Tools     []string `json:"tools"`
	Outputs   []string `json:"outputs"`
	Bold      int      `json:"bold"`
}

// pageHistory is what history.mjs read off the page.
type pageHistory struct {
	Reloaded      pageShown `json:"reloaded"`
	Ended         pageShown `json:"ended"`
	Again         pageShown `json:"again"`
	Error         string    `json:"error"`
	ConsoleErrors []string  `json:"consoleErrors"`
}

// TestServeChatPageReloadShowsThread: in a real headless Chromium, a page
// reloaded while the thread's second run waits for an approval shows the
// whole thread, the first run's prompt, texts, call and output included,
// with the second run's waiting call; the approval given there ends the
// run with each text shown once, and a reload after shows the same. The
// reloaded page showed only the run in flight.
func TestServeChatPageReloadShowsThread(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "history.mjs")
	script := writeScript(t, `{"replies": [
	  {"text": "I will run a command.", "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "echo first-ok"}}]},
	  {"text": "First run done."},
	  {"text": "Another command.", "tool_calls": [{"id": "c2", "name": "shell", "arguments": {"command": "echo second-ok"}}]},
	  {"text": "Second run done."}
	]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--allow-shell", "--token", "page-secret")

	var got pageHistory
	runPage(t, harness, chromium, "http://"+node.addr+"/#token=page-secret", &got)
	user := []string{"first <b>question</b>", "second question"}
	reloaded := pageShown{
		User:      user,
		Assistant: []string{"I will run a command.", "First run done.", "Another command."},
		Tools:     []string{"shell:output-available", "shell:approval-requested"},
		Outputs:   []string{"first-ok"},
	}
	ended := pageShown{
		User:      user,
		Assistant: []string{"I will run a command.", "First run done.", "Another command.", "Second run done."},
		Tools:     []string{"shell:output-available", "shell:output-available"},
		Outputs:   []string{"first-ok", "second-ok"},
	}
	for _, c := range []struct {
		what      string
		got, want pageShown
	}{
		{"right after the reload", got.Reloaded, reloaded},
		{"once the approved run ended", got.Ended, ended},
		{"after a last reload", got.Again, ended},
	} {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s the page showed (-want +got):\n%s", c.what, diff)
		}
	}
	if got.Error != "" || len(got.ConsoleErrors) > 0 {
		t.Errorf("errors on the page %q or in its console %q", got.Error, got.ConsoleErrors)
	}
}
