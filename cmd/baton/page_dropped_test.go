package main

import (
	"slices"
	"testing"
)

// pageDropped is what dropped.mjs read off the page.
type pageDropped struct {
	Before, After struct {
		Dropped []string `json:"dropped"`
		Pending []string `json:"pending"`
	}
	Steers        []int    `json:"steers"`
	ConsoleErrors []string `json:"consoleErrors"`
}

// TestServeChatPageShowsAMessageTheRunNeverTook: in a real headless
// Chromium, a message sent to a run that is stopped before it takes it
// shows as not delivered, rather than vanishing, live and after a
// reload.
func TestServeChatPageShowsAMessageTheRunNeverTook(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "dropped.mjs")
	script := writeScript(t, `{"replies": [
	  {"text": "I will wait a long while.", "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "sleep 600"}}]},
	  {"text": "Never sent."}
	]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--allow-shell", "--token", "page-secret")

	var got pageDropped
	runPage(t, harness, chromium, "http://"+node.addr+"/#token=page-secret", &got)
	want := []string{"then list the files"}
	checks := []struct {
		what string
		ok   bool
	}{
		{"the run took the message as steering", slices.Equal(got.Steers, []int{202})},
		{"stopped, the page shows it as not delivered, and nothing pending", slices.Equal(got.Before.Dropped, want) && len(got.Before.Pending) == 0},
		{"a reload shows the same", slices.Equal(got.After.Dropped, want) && len(got.After.Pending) == 0},
		{"no error in the page's console", len(got.ConsoleErrors) == 0},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no; the page showed %+v", c.what, got)
		}
	}
}
