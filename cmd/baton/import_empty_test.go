package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An export of an empty store imports nothing, and says so: in text, a
// line rather than silence, and in JSON an empty list a script can range
// over rather than null.
func TestImportOfNoSessions(t *testing.T) {
	isolate(t)
	empty := writeScript(t, `{"kind":"baton-store","v":1}`+"\n")
	for _, tt := range []struct {
		args   []string
		stdout string
	}{
		{[]string{"import", "--store", t.TempDir(), empty}, "no sessions imported: the input holds none\n"},
		{[]string{"import", "--json", "--store", t.TempDir(), empty}, `{"imported":[]}` + "\n"},
	} {
		code, stdout, stderr := cli(t, "", tt.args...)
		if code != exitOK || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, stderr)
		}
		if diff := cmp.Diff(tt.stdout, stdout); diff != "" {
			t.Errorf("%v: stdout mismatch (-want +got):\n%s", tt.args, diff)
		}
	}
}
