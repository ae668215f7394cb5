package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// pageKeys is what keys.mjs read off the page.
type pageKeys struct {
	User               []string `json:"user"`
	Prompt             string   `json:"prompt"`
	SentWhileComposing int      `json:"sentWhileComposing"`
	ConsoleErrors      []string `json:"consoleErrors"`
}

// TestServeChatPageKeyboard: in a real headless Chromium, Shift+Enter
// breaks the prompt's line, the Enter that ends an input method's
// composition sends nothing, and Enter sends the prompt, both lines, and
// empties the box.
func TestServeChatPageKeyboard(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "keys.mjs")
	script := writeScript(t, `{"replies": [{"text": "Noted."}]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir())

	var got pageKeys
	runPage(t, harness, chromium, "http://"+node.addr+"/", &got)
	want := pageKeys{User: []string{"first line\nsecond line"}}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("the page after typing (-want +got):\n%s", diff)
	}
}
