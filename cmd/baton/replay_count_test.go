package main

import "testing"

// TestReplayCountsOneStep: a session of one step, as a run left in
// flight before its first reply is, replays as "1 step".
func TestReplayCountsOneStep(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "real")
	if code, _, stderr := cli(t, "", "fork", "--store", dir, "--as", "one", "real", "1"); code != exitOK {
		t.Fatalf("fork: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := cli(t, "", "replay", "--store", dir, "one")
	if want := "replay verified: 1 step, byte for byte\n"; code != exitOK || stdout != want {
		t.Errorf("replay: exit %d\nstdout: %q, want %q\nstderr: %s", code, stdout, want, stderr)
	}
}
