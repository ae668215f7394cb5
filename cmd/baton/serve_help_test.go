package main

import (
	"strings"
	"testing"
)

// TestServeHelpNamesWhatItServes: serve's help and its line in baton's
// help name every way a client talks to it, as the handler answers each:
// AG-UI, the AI SDK's stream, NDJSON and the chat page; and what a
// SIGTERM does to the runs in flight.
func TestServeHelpNamesWhatItServes(t *testing.T) {
	isolate(t)
	_, help, _ := cli(t, "", "serve", "--help")
	for _, want := range []string{"AG-UI", "?protocol=ai-sdk", "application/x-ndjson", "chat page", "SIGTERM drains", "--drain-timeout"} {
		if !strings.Contains(help, want) {
			t.Errorf("serve --help does not mention %q:\n%s", want, help)
		}
	}
	_, top, _ := cli(t, "", "--help")
	for _, want := range []string{"AG-UI", "AI SDK"} {
		if !strings.Contains(top, want) {
			t.Errorf("baton --help's serve line does not mention %q:\n%s", want, top)
		}
	}
}
