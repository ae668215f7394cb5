package builtin

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestShellKeysOfAmbiguousOptionsBeforeALongShCAreBounded: every reading
// of the ambiguous options before sh -c parses the -c string again, so
// the bound counts the bytes parsed as well as the readings: a string of
// some hundred kilobytes behind a dozen --x was parsed thousands of
// times, for minutes, on the model call's goroutine (the run, and its
// Close, wait for it). Such a line is approved as itself.
func TestShellKeysOfAmbiguousOptionsBeforeALongShCAreBounded(t *testing.T) {
	// One long word, so that read as env's command it is a plain name
	// and every reading goes on to parse the -c string.
	line := "env" + strings.Repeat(" --x", 16) + " sh -c '" + strings.Repeat("a", 200000) + "'"
	args, _ := json.Marshal(shellArgs{Command: line})
	if _, err := keysWithin(t, args); !errors.Is(err, errTooAmbiguous) {
		t.Errorf("keys of a %d-byte line behind 16 ambiguous options: %v, want it approved as itself (%v)", len(line), err, errTooAmbiguous)
	}
}
