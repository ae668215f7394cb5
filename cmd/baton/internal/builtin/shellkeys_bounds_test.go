package builtin

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestShellKeysOfManyAmbiguousOptionsAreBounded: every long option a
// wrapper does not list (--x) is read both ways, as taking the next word
// and not. Each such option doubled the work: a line of 60 of them (a
// model's, or a prompt injection's) never got its keys, so the call's
// approval, and its run, hung for ever.
func TestShellKeysOfManyAmbiguousOptionsAreBounded(t *testing.T) {
	for _, line := range []string{
		"env" + strings.Repeat(" --x", 60) + " ls",
		strings.Repeat("env --x ", 40) + "ls",
	} {
		args, _ := json.Marshal(shellArgs{Command: line})
		if _, err := keysWithin(t, args); !errors.Is(err, errTooAmbiguous) {
			t.Errorf("keys of %.40q...: %v, want it approved as itself (%v)", line, err, errTooAmbiguous)
		}
	}
}

// keysWithin returns shellKeys(args), failing the test if they take
// minutes: the line's keys would never come, and the run would hang.
func keysWithin(t *testing.T, args json.RawMessage) ([]string, error) {
	t.Helper()
	type result struct {
		keys []string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		keys, err := shellKeys(args)
		done <- result{keys, err}
	}()
	select {
	case r := <-done:
		return r.keys, r.err
	case <-time.After(2 * time.Minute):
		t.Fatal("keys not found within 2 minutes")
		return nil, nil
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
