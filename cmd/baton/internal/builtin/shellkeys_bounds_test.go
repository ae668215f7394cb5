package builtin

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestShellKeysOfManyAmbiguousOptionsAreQuick: every long option a
// wrapper does not list (--x) is read both ways, as taking the next word
// and not. Each such option doubled the work: a line of 60 of them (a
// model's, or a prompt injection's) never got its keys, so the call's
// approval, and its run, hung for ever.
func TestShellKeysOfManyAmbiguousOptionsAreQuick(t *testing.T) {
	for _, line := range []string{
		"env" + strings.Repeat(" --x", 60) + " ls",
		strings.Repeat("env --x ", 40) + "ls",
	} {
		args, _ := json.Marshal(shellArgs{Command: line})
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = shellKeys(args)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("keys of %.40q... not found within 10s", line)
		}
	}
}

// TestShellKeysNameTheCommandBehindTimesOptions: time is one of the
// wrappers, and GNU time's -o FILE and -f FORMAT take the next word; the
// keys named that word (ls) as the command, not the one time runs (rm),
// so with ls and time allowed for the session rm ran unasked.
func TestShellKeysNameTheCommandBehindTimesOptions(t *testing.T) {
	for _, line := range []string{
		"/usr/bin/time -o ls rm -rf data",
		"/usr/bin/time -f ls rm -rf data",
		"command time --output ls rm -rf data",
		"/usr/bin/time --format ls rm -rf data",
	} {
		args, _ := json.Marshal(shellArgs{Command: line})
		keys, err := shellKeys(args)
		if err == nil && !slices.Contains(keys, "rm") {
			t.Errorf("keys of %q are %q: they omit rm", line, keys)
		}
	}
}
