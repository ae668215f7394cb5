package main

import (
	"slices"
	"testing"
)

// pageSteer is what steer.mjs read off the page.
type pageSteer struct {
	StatusWhenSent  string   `json:"statusWhenSent"`
	SendEnabled     bool     `json:"sendEnabled"`
	PromptAfterSend string   `json:"promptAfterSend"`
	Before          []string `json:"before"`
	After           []string `json:"after"`
	Steers          []int    `json:"steers"`
	Error           string   `json:"error"`
	ConsoleErrors   []string `json:"consoleErrors"`
}

// TestServeChatPageSteersStreamingRun: in a real headless Chromium, a
// message sent while the run's reply still streams steers that run: the
// server takes it, the page shows it once, where the run took it, and the
// same stream goes on with the steered reply; a reload shows the same.
// The Send button was disabled while a run streamed.
func TestServeChatPageSteersStreamingRun(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "steer.mjs")
	const slow = "Writing this reply one word at a time, slowly, so that there is time to change course before it ends."
	script := writeScript(t, `{"replies": [
	  {"text": "`+slow+`", "chunk_delay": "60ms"},
	  {"text": "Going left."}
	]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--token", "page-secret")

	var got pageSteer
	runPage(t, harness, chromium, "http://"+node.addr+"/#token=page-secret", &got)
	want := []string{"user: write slowly", "assistant: " + slow, "user: go left <i>instead</i>", "assistant: Going left."}
	checks := []struct {
		what string
		ok   bool
	}{
		{"the message was sent while the reply streamed", got.StatusWhenSent == "streaming" && got.SendEnabled && got.PromptAfterSend == ""},
		{"the server took it as steering", slices.Equal(got.Steers, []int{202})},
		{"the conversation shows it once, where the run took it, and the steered reply", slices.Equal(got.Before, want)},
		{"a reload shows the same conversation", slices.Equal(got.After, want)},
		{"no error on the page or in its console", got.Error == "" && len(got.ConsoleErrors) == 0},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no; the page showed %+v", c.what, got)
		}
	}
}
