package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pageWaitingMessage is what waiting_message.mjs read off the page.
type pageWaitingMessage struct {
	Before        []string `json:"before"`
	After         []string `json:"after"`
	Error         string   `json:"error"`
	ConsoleErrors []string `json:"consoleErrors"`
}

// TestServeChatPageMessageWhileWaiting: in a real headless Chromium, a
// message written while the run waits for an approval steers that run,
// which skips the call: the page shows the message once, where the run
// took it, and the call once, skipped, with no approval left to give,
// as a reload shows it. The page showed the message twice and the call
// twice, once still waiting for an approval no one would take. With
// two calls waiting, one approved on the page before the message, the
// message carries that decision: the approved call runs.
func TestServeChatPageMessageWhileWaiting(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "waiting_message.mjs")
	for _, c := range []struct {
		name        string
		decideFirst string
		reply       string
		want        []string
	}{
		{
			name:  "one call waits",
			reply: `{"text": "Running it.", "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "echo ran-ok"}}]}`,
			want: []string{
				"user: run it",
				"assistant: Running it.",
				"tool: shell:output-error skipped: steered",
				"user: skip it and say done",
				"assistant: Done.",
			},
		},
		{
			name:        "one of two calls approved",
			decideFirst: "1",
			reply: `{"text": "Running them.", "tool_calls": [
			  {"id": "c1", "name": "shell", "arguments": {"command": "echo one-ok"}},
			  {"id": "c2", "name": "shell", "arguments": {"command": "echo two-ok"}}
			]}`,
			want: []string{
				"user: run it",
				"assistant: Running them.",
				"tool: shell:output-available ",
				"tool: shell:output-error skipped: steered",
				"user: skip it and say done",
				"assistant: Done.",
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("DECIDE_FIRST", c.decideFirst)
			script := writeScript(t, `{"replies": [`+c.reply+`, {"text": "Done."}]}`)
			node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--allow-shell", "--token", "page-secret")
			var got pageWaitingMessage
			runPage(t, harness, chromium, "http://"+node.addr+"/#token=page-secret", &got)
			for _, shown := range []struct {
				when string
				got  []string
			}{
				{"once the steered run ended", got.Before},
				{"after a reload", got.After},
			} {
				if diff := cmp.Diff(c.want, shown.got); diff != "" {
					t.Errorf("%s the page showed (-want +got):\n%s", shown.when, diff)
				}
			}
			if got.Error != "" || len(got.ConsoleErrors) > 0 {
				t.Errorf("errors on the page %q or in its console %q", got.Error, got.ConsoleErrors)
			}
		})
	}
}
