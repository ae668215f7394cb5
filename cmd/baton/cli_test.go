package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUsageErrors(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	emptyFile := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(emptyFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no command", nil, "Usage: baton <command>"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown flag", []string{"sessions", "--bogus"}, "flag provided but not defined: -bogus"},
		{"log without session", []string{"log", "--store", dir}, "log: missing argument"},
		{"log with two sessions", []string{"log", "--store", dir, "a", "b"}, `log: unexpected argument "b"`},
		{"log graph as JSON", []string{"log", "--store", dir, "--graph", "--json", "s"}, "log: --graph and --json: give one"},
		{"log children as JSON", []string{"log", "--store", dir, "--json", "--children", "s"}, "log: --children and --json: give one"},
		{"replay without session", []string{"replay"}, "replay: missing argument"},
		{"fork without node", []string{"fork", "--store", dir, "s"}, "fork: missing argument"},
		{"run without prompt", []string{"run", "--store", dir}, "run: missing argument"},
		{"run with blank prompt", []string{"run", "--store", dir, "  "}, "run: empty prompt"},
		{"unknown provider", []string{"run", "--provider", "nope", "hi"}, `unknown provider "nope"`},
		{"scripted without script", []string{"run", "--provider", "scripted", "hi"}, "needs --script FILE"},
		{"script for another provider", []string{"run", "--script", "s.json", "--base-url", "http://127.0.0.1:1/v1", "hi"}, "--script is for --provider scripted, not openai"},
		{"base url for a script", []string{"run", "--provider", "scripted", "--script", "s.json", "--base-url", "http://127.0.0.1:1/v1", "hi"}, "--base-url is for --provider openai or anthropic, not scripted"},
		{"serve: script for another provider", []string{"serve", "--provider", "anthropic", "--script", "s.json"}, "--script is for --provider scripted, not anthropic"},
		{"demo with argument", []string{"demo", "extra"}, `demo: unexpected argument "extra"`},
		{"bad flag value", []string{"sessions", "--json=maybe"}, "invalid boolean value"},
		{"export has no --json", []string{"export", "--json"}, "export: --json is not a flag of export: it writes JSONL already"},
		{"serve has no --json", []string{"serve", "--json=true"}, "serve: --json is not a flag of serve: its output is the AG-UI stream it serves"},
		{"fork as a bad id", []string{"fork", "--store", dir, "--as", "bad id/x", "s", "1"}, `fork: --as: session id "bad id/x": use letters, digits, '-', '_' and '.' only`},
		{"fork as an id too long for the store", []string{"fork", "--store", dir, "--as", strings.Repeat("x", 81), "s", "1"}, "fork: --as: session id of 81 bytes; at most 80"},
		{"no retries below zero", []string{"run", "--retries", "-1", "hi"}, "run: --retries must be 0 or more, got -1"},
		{"zero timeout", []string{"serve", "--stall-timeout", "0s"}, "serve: --stall-timeout must be positive, got 0s"},
		{"negative retry wait", []string{"run", "--max-retry-wait", "-1s", "hi"}, "run: --max-retry-wait must be 0 (no bound) or more, got -1s"},
		{"negative retry budget", []string{"serve", "--retry-budget", "-1m"}, "serve: --retry-budget must be 0 (no bound) or more, got -1m0s"},
		{"two bad timeouts, the first listed named", []string{"serve", "--model-timeout", "0s", "--first-chunk-timeout", "-1s"}, "serve: --first-chunk-timeout must be positive, got -1s"},
		{"two bad retry bounds, the first listed named", []string{"run", "--retry-budget", "-1s", "--max-retry-wait", "-1s", "hi"}, "run: --max-retry-wait must be 0 (no bound) or more, got -1s"},
		{"negative context window", []string{"run", "--context-window", "-5", "hi"}, "run: --context-window must be positive, got -5"},
		{"zero context window", []string{"run", "--context-window", "0", "hi"}, "run: --context-window must be positive, got 0"},
		{"serve: zero context window", []string{"serve", "--context-window", "0"}, "serve: --context-window must be positive, got 0"},
		{"system and system file", []string{"run", "--system", "Be brief.", "--system-file", "system.txt", "hi"}, "run: --system and --system-file: give one"},
		{"serve: system file missing", []string{"serve", "--system-file", filepath.Join(dir, "none.txt")}, "serve: --system-file: open " + filepath.Join(dir, "none.txt") + ": no such file or directory"},
		{"empty system file", []string{"run", "--system-file", emptyFile, "hi"}, "run: --system-file " + emptyFile + " is empty"},
		{"system not UTF-8", []string{"serve", "--system", "caf\xe9"}, "serve: the system prompt is not UTF-8 text"},
		{"no idle timeout", []string{"serve", "--idle-timeout", "0s"}, "serve: --idle-timeout must be positive, got 0s"},
		{"no threads", []string{"serve", "--max-threads", "0"}, "serve: --max-threads must be positive, got 0"},
		{"negative threads per user", []string{"serve", "--max-threads-per-user", "-1"}, "serve: --max-threads-per-user must be 0 (no cap but --max-threads) or more, got -1"},
		{"threads per user without users", []string{"serve", "--max-threads-per-user", "4"}, "serve: --max-threads-per-user needs --tokens: without users every request is one user's"},
		{"negative drain timeout", []string{"serve", "--drain-timeout", "-1s"}, "serve: --drain-timeout must be 0 (leave runs in flight at once) or more, got -1s"},
		{"origin with a path", []string{"serve", "--allow-origin", "https://app.example/"}, `serve: --allow-origin "https://app.example/": want an origin, scheme://host[:port] with no path (such as https://app.example), * or null`},
		{"origin without a scheme", []string{"serve", "--allow-origin", "https://a.example,app.example"}, `serve: --allow-origin "app.example": want an origin`},
		{"advertise with a store folder", []string{"serve", "--store", dir, "--advertise", "http://10.0.0.5:8080"}, "serve: --advertise is for a postgres:// --store that several serve processes share, not a store folder"},
		{"advertise without a scheme", []string{"serve", "--advertise", "10.0.0.5:8080"}, `serve: --advertise "10.0.0.5:8080": want the URL other serve processes reach this one at, such as http://10.0.0.5:8080`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q does not say %q", stderr, tt.stderr)
			}
			if !strings.HasPrefix(stderr, "baton: ") && tt.args != nil {
				t.Errorf("stderr not prefixed 'baton: ': %q", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
		})
	}
}

func TestHelpEverywhere(t *testing.T) {
	isolate(t)
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", c.name, "--help")
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, want := range []string{"Usage: baton " + c.name, "-store"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("help does not mention %q:\n%s", want, stdout)
				}
			}
			// A flag the help lists does what it says: export writes
			// JSONL whatever the flag, serve's output is the stream.
			if listed := strings.Contains(stdout, "-json"); listed != !slices.Contains([]string{"export", "serve"}, c.name) {
				t.Errorf("help mentions -json: %v, want %v:\n%s", listed, !listed, stdout)
			}
		})
	}
	code, stdout, _ := cli(t, "", "--help")
	if code != exitOK || !strings.Contains(stdout, "replay") {
		t.Errorf("top-level help: exit %d\n%s", code, stdout)
	}
}

func TestRuntimeErrors(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "real")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"log unknown session", []string{"log", "--store", dir, "ghost"}, `baton: unknown session "ghost"`},
		{"graph unknown session", []string{"log", "--graph", "--store", dir, "ghost"}, `baton: unknown session "ghost"`},
		{"replay unknown session", []string{"replay", "--store", dir, "ghost"}, `baton: unknown session "ghost"`},
		{"fork unknown session", []string{"fork", "--store", dir, "ghost", "1"}, `baton: unknown session "ghost"`},
		{"export unknown session", []string{"export", "--store", dir, "ghost"}, `baton: unknown session "ghost"`},
		{"run unknown session", []string{"run", "--provider", "scripted", "--script", writeScript(t, `{"replies":[{"text":"hi"}]}`), "--store", dir, "--session", "ghost", "hi"}, `baton: unknown session "ghost"`},
		{"fork unknown node", []string{"fork", "--store", dir, "real", "999"}, `baton: session "real" has no node "999": give a step number from 1 to 8 or at least 6 hex digits of a node's hash (see 'baton log --graph real')`},
		{"fork short hash", []string{"fork", "--store", dir, "real", "ab"}, `baton: session "real" has no node "ab": give a step number from 1 to 8`},
		{"fork unknown hash", []string{"fork", "--store", dir, "real", "abcdef0"}, `baton: session "real" has no node "abcdef0": give a step number from 1 to 8`},
		{"fork existing target", []string{"fork", "--store", dir, "--as", "real", "real", "2"}, "baton: fork real: session \"real\" exists already; name another with --as\n"},
		{"export to a missing folder", []string{"export", "--store", dir, "-o", filepath.Join(dir, "none", "out.jsonl")}, "baton: export: write " + filepath.Join(dir, "none", "out.jsonl") + ": no such file or directory\n"},
		{"openai without key", []string{"run", "--provider", "openai", "--store", dir, "hi"}, "baton: --provider openai: OPENAI_API_KEY is not set"},
		{"anthropic without key", []string{"run", "--provider", "anthropic", "--store", dir, "hi"}, "baton: --provider anthropic: ANTHROPIC_API_KEY is not set"},
		{"missing script file", []string{"run", "--provider", "scripted", "--script", filepath.Join(dir, "none.json"), "hi"}, "baton: --script: scripted: load"},
		{"bad script", []string{"run", "--provider", "scripted", "--script", writeScript(t, `{"replies":[]}`), "hi"}, "no replies"},
		{"import garbage", []string{"import", "--store", dir, writeScript(t, "not json\n")}, "baton: store: "},
		{"store is a file", []string{"sessions", "--store", writeScript(t, "x")}, "is not a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, "", tt.args...)
			if code != exitFailure {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitFailure, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q does not say %q", stderr, tt.stderr)
			}
		})
	}
}

func TestCorruptStore(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "s")
	damageLog(t, dir, "s")
	for _, args := range [][]string{{"log", "s"}, {"log", "--graph", "s"}, {"replay", "s"}, {"sessions"}, {"export"}, {"fork", "s", "1"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, _, stderr := cli(t, "", append(args, "--store", dir)...)
			if code != exitFailure {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitFailure, stderr)
			}
			if !strings.HasPrefix(stderr, "baton: ") || !strings.Contains(stderr, "corrupt") {
				t.Errorf("stderr does not report corruption: %q", stderr)
			}
		})
	}
}

func TestSessionsAndJSON(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	code, stdout, _ := cli(t, "", "sessions", "--store", dir)
	if code != 0 || !strings.Contains(stdout, "no sessions yet") {
		t.Errorf("empty store: exit %d %q", code, stdout)
	}
	fixedSession(t, dir, "one")
	fixedSession(t, dir, "two")
	code, stdout, _ = cli(t, "", "sessions", "--store", dir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden(t, "sessions.golden", stdout)
	code, stdout, _ = cli(t, "", "sessions", "--json", "--store", dir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden(t, "sessions.json.golden", stdout)
}

func TestLogGolden(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "fixed")
	for _, tt := range []struct {
		golden string
		args   []string
	}{
		{"log.golden", []string{"log", "fixed"}},
		{"log_graph.golden", []string{"log", "--graph", "fixed"}},
		{"log_json.golden", []string{"log", "fixed", "--json"}},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", append(tt.args, "--store", dir)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden(t, tt.golden, stdout)
		})
	}
}

func TestDefaultStoreFromBatonHome(t *testing.T) {
	home := isolate(t)
	fixedSession(t, filepath.Join(home, ".baton", "store"), "homed")
	code, stdout, stderr := cli(t, "", "replay", "homed")
	if code != 0 || stdout != "replay verified: 8 steps, byte for byte\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	t.Setenv("BATON_HOME", "")
	fixedSession(t, filepath.Join(home, ".baton", "store"), "homed2")
	if code, _, stderr := cli(t, "", "log", "homed2"); code != 0 {
		t.Errorf("~/.baton/store: exit %d %s", code, stderr)
	}
}

func TestForkExportImport(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "orig")
	code, stdout, stderr := cli(t, "", "fork", "--store", dir, "--as", "branch", "orig", "5")
	if code != 0 {
		t.Fatalf("fork: exit %d %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "forked orig at step 5 (") {
		t.Errorf("fork output %q", stdout)
	}
	_, graph, _ := cli(t, "", "log", "--graph", "--store", dir, "orig")
	lines := strings.Split(graph, "\n")
	prefix := strings.Fields(lines[len(lines)-4])[1] // step 3
	code, stdout, stderr = cli(t, "", "fork", "--json", "--store", dir, "--as", "byhash", "orig", prefix)
	if code != 0 || !strings.Contains(stdout, `"step":3`) {
		t.Errorf("fork by hash %s: exit %d %s %s", prefix, code, stdout, stderr)
	}
	if code, _, stderr := cli(t, "", "fork", "--store", dir, "orig", "abc"); code != exitFailure {
		t.Errorf("short hash: exit %d %s", code, stderr)
	}
	for _, id := range []string{"branch", "byhash"} {
		if code, stdout, stderr := cli(t, "", "replay", "--store", dir, id); code != 0 || !strings.Contains(stdout, "replay verified") {
			t.Errorf("replay %s: exit %d %s %s", id, code, stdout, stderr)
		}
	}
	export := filepath.Join(t.TempDir(), "all.jsonl")
	if code, _, stderr := cli(t, "", "export", "--store", dir, "-o", export); code != 0 {
		t.Fatalf("export: exit %d %s", code, stderr)
	}
	dir2 := t.TempDir()
	code, stdout, stderr = cli(t, "", "import", "--store", dir2, export)
	if code != 0 {
		t.Fatalf("import: exit %d %s", code, stderr)
	}
	if diff := cmp.Diff("imported branch\nimported byhash\nimported orig\n", stdout); diff != "" {
		t.Errorf("import mismatch (-want +got):\n%s", diff)
	}
	b, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = cli(t, string(b), "import", "--json", "--store", t.TempDir())
	if code != 0 || stdout != `{"imported":["branch","byhash","orig"]}`+"\n" {
		t.Errorf("import from stdin: exit %d %q", code, stdout)
	}
	_, a, _ := cli(t, "", "log", "--store", dir, "orig")
	_, b2, _ := cli(t, "", "log", "--store", dir2, "orig")
	if diff := cmp.Diff(a, b2); diff != "" {
		t.Errorf("imported transcript mismatch (-want +got):\n%s", diff)
	}
	code, stdout, _ = cli(t, "", "export", "--store", dir, "orig")
	if code != 0 || !strings.HasPrefix(stdout, `{"kind":"baton-store"`) {
		t.Errorf("export to stdout: exit %d %q", code, stdout[:min(len(stdout), 80)])
	}
}

func TestSessionsListsPastDamage(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	for _, id := range []string{"a-good", "b-bad", "c-good"} {
		fixedSession(t, dir, id)
	}
	damageLog(t, dir, "b-bad")
	code, stdout, stderr := cli(t, "", "sessions", "--store", dir)
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	prompt := "Look around the workspace, write a short poem to poem.txt, …"
	want := "SESSION  STEPS  STATUS   UPDATED              FIRST PROMPT\n" +
		"a-good   8      settled  2025-01-02 03:04:05  " + prompt + "\n" +
		"c-good   8      settled  2025-01-02 03:04:05  " + prompt + "\n" +
		"b-bad    -      damaged  -                    -\n"
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(stderr, `baton: session "b-bad": the store is damaged`) || !strings.HasSuffix(stderr, "baton: sessions are damaged: 1 of 3\n") {
		t.Errorf("stderr does not name the damaged session: %q", stderr)
	}

	code, stdout, _ = cli(t, "", "sessions", "--json", "--store", dir)
	if code != exitFailure {
		t.Errorf("--json: exit %d, want %d", code, exitFailure)
	}
	var got []sessionRow
	dec := json.NewDecoder(strings.NewReader(stdout))
	for dec.More() {
		var r sessionRow
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("--json output: %v\n%s", err, stdout)
		}
		got = append(got, r)
	}
	if len(got) != 3 || got[0].Error != "" || got[1].Error != "" || got[2].ID != "b-bad" || !strings.Contains(got[2].Error, "corrupt") {
		t.Errorf("--json rows: %+v", got)
	}
}

func TestReadOnlyCommandsNeedAStore(t *testing.T) {
	isolate(t)
	parent := t.TempDir()
	missing := filepath.Join(parent, "nope")
	for _, args := range [][]string{{"sessions"}, {"log", "s"}, {"log", "--graph", "s"}, {"replay", "s"}, {"export"}, {"export", "-o", filepath.Join(parent, "out.jsonl")}, {"fork", "s", "1"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := cli(t, "", append(args, "--store", missing)...)
			if code != exitFailure {
				t.Errorf("exit %d, want %d", code, exitFailure)
			}
			if want := "baton: no store at " + missing + "\n"; stderr != want {
				t.Errorf("stderr %q, want %q", stderr, want)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			entries, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 0 {
				t.Errorf("created %v", entries[0].Name())
			}
		})
	}
	// Commands that write may start a store.
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, `{"replies":[{"text":"hi"}]}`), "--store", missing, "hello")
	if code != exitOK {
		t.Fatalf("run into a new store: exit %d %s", code, stderr)
	}
	if code, stdout, _ := cli(t, "", "sessions", "--store", missing); code != exitOK || !strings.Contains(stdout, "SESSION") {
		t.Errorf("sessions after import: exit %d %q", code, stdout)
	}
}

func TestExportFailureLeavesNoPartialFile(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "a-good")
	fixedSession(t, dir, "b-bad")
	damageLog(t, dir, "b-bad")
	outDir := t.TempDir()
	fresh := filepath.Join(outDir, "fresh.jsonl")
	kept := filepath.Join(outDir, "kept.jsonl")
	if err := os.WriteFile(kept, []byte("previous\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{fresh, kept} {
		code, _, stderr := cli(t, "", "export", "--store", dir, "-o", out)
		if code != exitFailure || !strings.Contains(stderr, "corrupt") {
			t.Errorf("export -o %s: exit %d %q", filepath.Base(out), code, stderr)
		}
	}
	var names []string
	entries, err := os.ReadDir(outDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"kept.jsonl"}, names); diff != "" {
		t.Errorf("files after failed exports mismatch (-want +got):\n%s", diff)
	}
	if b, err := os.ReadFile(kept); err != nil || string(b) != "previous\n" {
		t.Errorf("existing file changed: %.60q %v", b, err)
	}
	code, _, stderr := cli(t, "", "export", "--store", dir, "-o", kept, "a-good")
	if code != exitOK {
		t.Fatalf("export a-good: exit %d %s", code, stderr)
	}
	fi, err := os.Stat(kept)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("exported file: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(kept); !strings.HasPrefix(string(b), `{"kind":"baton-store"`) {
		t.Errorf("exported file starts %q", b[:min(len(b), 40)])
	}
}

// On a fresh machine the default store does not exist yet: sessions says
// so kindly and succeeds, while an explicit --store that is wrong fails.
func TestSessionsOnAFreshMachine(t *testing.T) {
	isolate(t)
	code, stdout, stderr := cli(t, "", "sessions")
	if code != 0 || !strings.Contains(stdout, "no sessions yet") {
		t.Fatalf("fresh sessions: exit %d %q %q", code, stdout, stderr)
	}
	code, stdout, _ = cli(t, "", "sessions", "--json")
	if code != 0 || stdout != "" {
		t.Fatalf("fresh sessions --json: exit %d %q", code, stdout)
	}
	code, _, stderr = cli(t, "", "sessions", "--store", filepath.Join(t.TempDir(), "typo"))
	if code != 1 || !strings.Contains(stderr, "no store at") {
		t.Fatalf("mistyped store: exit %d %q", code, stderr)
	}
}
