package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// importRecorded imports recorded session files into one fresh store.
func importRecorded(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		if code, _, stderr := cli(t, "", "import", "--store", dir, filepath.Join(sessionsDir, name)); code != exitOK {
			t.Fatalf("import %s: %s", name, stderr)
		}
	}
	return dir
}

// TestLogShowsDelegateSessions: at each delegate call the transcript
// names the child's session and how to read it; --children prints the
// child's transcript there, indented; a child is readable by its id, even
// one recorded before children had heads of their own.
func TestLogShowsDelegateSessions(t *testing.T) {
	isolate(t)
	var out strings.Builder
	for _, name := range []string{"delegation.jsonl", "long-id-delegation.jsonl", "allow-running.jsonl"} {
		dir := importRecorded(t, name)
		id := recordedSessions[name].id
		for _, args := range [][]string{{id}, {"--children", id}} {
			code, stdout, stderr := cli(t, "", append([]string{"log", "--store", dir}, args...)...)
			if code != exitOK {
				t.Fatalf("log %s: exit %d: %s", args, code, stderr)
			}
			out.WriteString("=== " + name + ": log " + strings.Join(args, " ") + "\n" + strings.ReplaceAll(stdout, dir, "$STORE"))
		}
	}
	golden(t, "log_delegates.golden", out.String())
}

// TestHeadlessChildReadable: a child recorded without a head of its own
// is read through its parent's link by log, log --graph, log --json,
// replay and fork; ids that name no linked child stay unknown.
func TestHeadlessChildReadable(t *testing.T) {
	isolate(t)
	dir := importRecorded(t, "delegation.jsonl")
	cases := []struct {
		args []string
		want string // in stdout, or in stderr when the exit is not 0
		ok   bool
	}{
		{[]string{"log", "calm-robin-ad6f/2.0"}, "user: read notes.txt\n", true},
		{[]string{"log", "--graph", "calm-robin-ad6f/2.0"}, "step 1    submitted", true},
		{[]string{"log", "--json", "calm-robin-ad6f/2.0"}, `"kind":"submitted"`, true},
		{[]string{"replay", "calm-robin-ad6f/2.0"}, "replay verified: 4 steps, byte for byte\n", true},
		{[]string{"fork", "--as", "copy", "calm-robin-ad6f/2.0", "2"}, "forked calm-robin-ad6f/2.0 at step 2", true},
		{[]string{"fork", "calm-robin-ad6f/2.1", "2"}, `unknown session "calm-robin-ad6f/2.1"`, false},
		{[]string{"export", "calm-robin-ad6f/2.1"}, `unknown session "calm-robin-ad6f/2.1"`, false},
		{[]string{"log", "calm-robin-ad6f/2.1"}, `unknown session "calm-robin-ad6f/2.1"`, false},
		{[]string{"log", "calm-robin-ad6f/3.0"}, `unknown session "calm-robin-ad6f/3.0"`, false},
		{[]string{"log", "other/2.0"}, `unknown session "other/2.0"`, false},
		{[]string{"run", "--provider", "scripted", "--script", writeScript(t, `{"replies": [{"text": "hi"}]}`), "--workspace", t.TempDir(), "--session", "calm-robin-ad6f/2.0", "go on"}, "calm-robin-ad6f/2.0", false},
	}
	for _, c := range cases {
		args := append([]string{c.args[0], "--store", dir}, c.args[1:]...)
		code, stdout, stderr := cli(t, "", args...)
		got := stdout
		if !c.ok {
			got = stderr
		}
		if (code == exitOK) != c.ok || !strings.Contains(got, c.want) {
			t.Errorf("%s: exit %d, want ok=%v and %q in\nstdout: %s\nstderr: %s", c.args, code, c.ok, c.want, stdout, stderr)
		}
	}
}

// TestSessionArg: a session id printed for the user to pass back is
// escaped for the terminal and quoted for the shell only when it must be.
func TestSessionArg(t *testing.T) {
	cases := []struct{ id, want string }{
		{"calm-robin-ad6f/2.0", "calm-robin-ad6f/2.0"},
		{"~f7cbf1995885d139:.a-thread/4.0", "'~f7cbf1995885d139:.a-thread/4.0'"},
		{"a~b@c+d,e=f%g/1.0", "a~b@c+d,e=f%g/1.0"},
		{"team notes/2.0", "'team notes/2.0'"},
		{"it's/2.0", `'it'\''s/2.0'`},
		{"red\x1b[31m/2.0", `'red\x1b[31m/2.0'`},
		{"two\nlines/1.0", `'two\nlines/1.0'`},
		{"$(rm -rf)/1.0", "'$(rm -rf)/1.0'"},
		{"-n/1.0", "'-n/1.0'"},
		{"", "''"},
	}
	for _, c := range cases {
		if got := shellArg(c.id); got != c.want {
			t.Errorf("shellArg(%q) = %s, want %s", c.id, got, c.want)
		}
	}
}

// TestReplaySaysWhatItCounts: replay's count covers the delegated runs
// too, and says so, so it does not seem to contradict sessions' count of
// the session's own steps.
func TestReplaySaysWhatItCounts(t *testing.T) {
	isolate(t)
	cases := []struct {
		file, text string
		json       replayReport
	}{
		{"delegation.jsonl", "replay verified: 8 steps, byte for byte: 4 of the session's own and 4 of 1 delegated run\n",
			replayReport{Session: "calm-robin-ad6f", Steps: 8, SessionSteps: 4, DelegatedRuns: 1, Verified: true}},
		{"allow-running.jsonl", "replay verified: 16 steps, byte for byte: 6 of the session's own and 10 of 2 delegated runs\n",
			replayReport{Session: "shared-ink-5e1d", Steps: 16, SessionSteps: 6, DelegatedRuns: 2, Verified: true}},
		{"plain.jsonl", "replay verified: 11 steps, byte for byte\n",
			replayReport{Session: "cosmic-walrus-62f4", Steps: 11, SessionSteps: 11, Verified: true}},
	}
	for _, c := range cases {
		dir := importRecorded(t, c.file)
		id := recordedSessions[c.file].id
		if _, stdout, _ := cli(t, "", "replay", "--store", dir, id); stdout != c.text {
			t.Errorf("%s: replay says %q, want %q", c.file, stdout, c.text)
		}
		_, stdout, _ := cli(t, "", "replay", "--json", "--store", dir, id)
		var got replayReport
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%s: %v: %s", c.file, err, stdout)
		}
		if diff := cmp.Diff(c.json, got); diff != "" {
			t.Errorf("%s: replay --json mismatch (-want +got):\n%s", c.file, diff)
		}
		_, rows, _ := cli(t, "", "sessions", "--json", "--store", dir)
		var row sessionRow
		if err := json.Unmarshal([]byte(strings.SplitN(rows, "\n", 2)[0]), &row); err != nil {
			t.Fatal(err)
		}
		if int(row.Steps) != c.json.SessionSteps {
			t.Errorf("%s: sessions counts %d steps, replay %d of the session's own", c.file, row.Steps, c.json.SessionSteps)
		}
	}
}

// TestSessionsListsChildrenUnderParents: delegated runs' sessions are left
// out of the listing unless --children asks for them, and then each stands
// indented under its parent, a child recorded without a head too.
func TestSessionsListsChildrenUnderParents(t *testing.T) {
	isolate(t)
	dir := importRecorded(t, "delegation.jsonl", "allow-running.jsonl", "plain.jsonl")
	var out strings.Builder
	for _, args := range [][]string{{}, {"--children"}, {"--json"}, {"--json", "--children"}} {
		code, stdout, stderr := cli(t, "", append([]string{"sessions", "--store", dir}, args...)...)
		if code != exitOK {
			t.Fatalf("sessions %s: exit %d: %s", args, code, stderr)
		}
		out.WriteString("=== sessions " + strings.Join(args, " ") + "\n" + stdout)
	}
	golden(t, "sessions_delegates.golden", out.String())
}
