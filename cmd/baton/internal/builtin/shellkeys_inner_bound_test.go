package builtin

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestShellKeysOfAmbiguousOptionsBeforeALongShCAreQuick: the keying
// bound counts readings of a line, not the bytes read: every reading of
// the ambiguous options before sh -c parses the -c string again, so a
// string of some hundred kilobytes behind a dozen --x was parsed
// thousands of times, for minutes, on the model call's goroutine (the
// run, and its Close, wait for it).
func TestShellKeysOfAmbiguousOptionsBeforeALongShCAreQuick(t *testing.T) {
	line := "env" + strings.Repeat(" --x", 16) + " sh -c 'echo " + strings.Repeat("a ", 100000) + "'"
	args, _ := json.Marshal(shellArgs{Command: line})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = shellKeys(args)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("keys of a %d-byte line not found within 10s", len(line))
	}
}
