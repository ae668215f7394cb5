package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
)

// sessionsDir holds the sessions every release recorded. They are never
// rewritten: a release that records differently adds new files, and every
// file here must still import, replay and export to the same lines.
var sessionsDir = filepath.Join("..", "..", "testdata", "sessions")

// recordedSessions names each recorded file's session and its step
// count, with, for one that delegated, how replay says the count divides.
var recordedSessions = map[string]struct {
	id    string
	steps int
	split string
}{
	"plain.jsonl":                {"cosmic-walrus-62f4", 11, ""},
	"parallel-tools.jsonl":       {"glad-thistle-48d9", 9, ""},
	"retries.jsonl":              {"rapid-summit-a4bb", 5, ""},
	"steering.jsonl":             {"crisp-robin-b5d6", 7, ""},
	"approvals.jsonl":            {"keen-lantern-c632", 14, ""},
	"compaction.jsonl":           {"jolly-otter-30a1", 15, ""}, // the summary did not shrink history: skipped
	"compaction-condensed.jsonl": {"quiet-summit-8b33", 33, ""},
	"abort.jsonl":                {"glad-sparrow-f420", 6, ""},
	"resumed-crash.jsonl":        {"mellow-river-a7f9", 13, ""},
	"model-failed.jsonl":         {"clever-fern-824d", 2, ""},
	// Revision 1: the faulted first run's turns are left out of the
	// second run's model call; turn_started events.
	"failed-run-excluded.jsonl": {"bold-raven-7d6c", 6, ""},
	// Revision 2: a delegate call whose child run (4 steps, linked at the
	// parent's delegate_settled) replays with the parent.
	"delegation.jsonl": {"calm-robin-ad6f", 8, ": 4 of the session's own and 4 of 1 delegated run"},
	// An output schema: two answers sent back (not JSON, a field
	// missing), the third settles; each reply records the verdict.
	"structured-output.jsonl": {"proud-lantern-a20f", 4, ""},
	// Revision 8: a session whose id is too long for its delegate's to
	// extend (forked from a short one, then a run delegating); the
	// child's session begins with a digest of the parent id.
	"long-id-delegation.jsonl": {"team-notes.2026-11-27.a-thread-whose-id-is-long-enough-to-cut-its-delegates-ids", 10, ": 6 of the session's own and 4 of 1 delegated run"},
	// Revision 10: two delegate calls whose children each ask to run
	// shell; "always" for the first child's call reaches the parent
	// (allowance_shared) and from it the second child, still running,
	// whose waiting call runs unasked.
	"allow-running.jsonl": {"shared-ink-5e1d", 16, ": 6 of the session's own and 10 of 2 delegated runs"},
	// Revision 11: the process stopped while the second run's model call
	// was out, with a long steer recorded; the resume compacts the first
	// run before sending the call again with the steer after the summary.
	"steer-resume-compaction.jsonl": {"patient-heron-5c2e", 7, ""},
	// Revision 12: an MCP server's tool shift drops old and itself and
	// adds fresh mid-run (tools_changed); the next model call offers
	// fresh, which runs, and old is answered as an unknown tool.
	"tools-changed.jsonl": {"mellow-lantern-be9d", 7, ""},
	// Revision 13: a long steer queued while the second run's model call
	// was out brings history due at the boundary after its reply; the
	// run compacts before the call and delivers the steer after the
	// summary.
	"steer-compaction.jsonl": {"steady-wren-91c4", 7, ""},
	// Revision 14: tool choice required; the first model call's echo
	// result brings history due, the compacted record carries what the
	// summary call used, and the second call, sent with auto, answers.
	"forced-choice.jsonl": {"forced-choice-4c1e", 5, ""},
}

// recordedChildren names, for a recorded file that holds them beside its
// session, the sessions of its delegated runs, which import lists too.
var recordedChildren = map[string][]string{
	"long-id-delegation.jsonl": {"~f7cbf1995885d139:.a-thread-whose-id-is-long-enough-to-cut-its-delegates-ids/4.0"},
	"allow-running.jsonl":      {"shared-ink-5e1d/2.0", "shared-ink-5e1d/2.1"},
}

// badSessions are damaged or tampered sessions and the exact message
// baton refuses each with: at import when the bytes are damaged, at
// replay when a validly hashed record was edited.
var badSessions = map[string]struct {
	at      string // "import" or "replay"
	message string
}{
	"bad-hash-mismatch.jsonl": {"import", "baton: store: import line 2: object 7636963f41f1492f0b1fa916a82ed7fa2b88d7d9c1bc16775e72a5a11430d47d: corrupt object: content hashes to eb0f2fc7ffe7f6ecbce7969ab1a35ac2a64f7364b8f7daf45738f79f8a707ae2 (truncated, altered or misnamed)\n"},
	"bad-missing-node.jsonl":  {"import", "baton: store: import line 4: parent of aff1c3f8778e94216723ffb60946eb2a13f52a1e232f133c73ab97b16ae862e8: fb65e49afc7da095ee66d8378eaa053bb6012fbe0ceafac760a39b4cf9f62bc2: missing parent\n"},
	// Recorded when version 2 was still to come; it is today's version,
	// which ends with an end line this file lacks.
	"bad-future-version.jsonl":   {"import", "baton: store: import: corrupt object: export cut short: it ends after line 13 without the end line a version 2 export ends with\n"},
	"bad-future-version-3.jsonl": {"import", "baton: store: import line 1: contract: unsupported schema version: export version 3, this release reads up to 2\n"},
	"bad-torn-line.jsonl":        {"import", "baton: store: import line 3: corrupt object: unexpected EOF\n"},
	"bad-edited-reply.jsonl":     {"replay", `baton: replay glad-thistle-48d9: cadence: nondeterministic step 2: recorded "publish turn_completed#2; publish tool_call#3; publish tool_call#4; publish tool_call#5; run_tool call_a read_file; run_tool call_b read_file; run_tool call_c read_file", replayed "publish turn_completed#2; publish tool_call#3; publish tool_call#4; publish tool_call#5; run_tool call_a write_file; run_tool call_b read_file; run_tool call_c read_file"` + "\n"},
	"bad-unknown-call.jsonl":     {"replay", `baton: replay glad-thistle-48d9: cadence: recorded signal rejected: step 7 (tool_settled): tool_settled: no pending call "call_q"` + "\n"},
}

func TestRecordedSessionsAreAllListed(t *testing.T) {
	entries, err := os.ReadDir(sessionsDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	var listed []string
	for name := range recordedSessions {
		listed = append(listed, name)
	}
	for name := range badSessions {
		listed = append(listed, name)
	}
	slices.Sort(listed)
	if diff := cmp.Diff(listed, files); diff != "" {
		t.Errorf("testdata/sessions and the tables here differ (-listed +on disk):\n%s", diff)
	}
}

// TestRecordedSessionsReplay imports each recorded session into a fresh
// store, replays it byte for byte and exports it back to the very lines
// it was recorded as, under today's header and with an end line.
func TestRecordedSessionsReplay(t *testing.T) {
	isolate(t)
	for name, want := range recordedSessions {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(sessionsDir, name)
			dir := t.TempDir()
			code, stdout, stderr := cli(t, "", "import", "--store", dir, path)
			imported := "imported " + want.id + "\n"
			for _, c := range recordedChildren[name] {
				imported += "imported " + c + "\n"
			}
			if code != exitOK || stdout != imported {
				t.Fatalf("import: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			code, stdout, stderr = cli(t, "", "replay", "--store", dir, want.id)
			wantOut := fmt.Sprintf("replay verified: %d steps, byte for byte%s\n", want.steps, want.split)
			if code != exitOK || stdout != wantOut {
				t.Fatalf("replay: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			code, stdout, stderr = cli(t, "", "export", "--store", dir, want.id)
			if code != exitOK {
				t.Fatalf("export: exit %d: %s", code, stderr)
			}
			recorded, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// Recorded as version 1, exported as today's version: the
			// header names it and an end line follows; every line
			// between is the recorded one, byte for byte.
			body, ok := strings.CutPrefix(string(recorded), `{"kind":"baton-store","v":1}`+"\n")
			if !ok {
				t.Fatalf("%s does not begin with a version 1 header", name)
			}
			rest, ok := strings.CutPrefix(stdout, `{"kind":"baton-store","v":2}`+"\n"+body)
			if !ok {
				t.Errorf("export of the imported session differs from %s", name)
			} else if !strings.HasPrefix(rest, `{"kind":"end",`) || strings.Count(rest, "\n") != 1 || !strings.HasSuffix(rest, "\n") {
				t.Errorf("export of %s ends with %q, want one end line", name, rest)
			}
		})
	}
}

// TestBadSessionsRefused checks each bad session is refused with its exact
// message, and that a refused import leaves the store without it.
func TestBadSessionsRefused(t *testing.T) {
	isolate(t)
	for name, want := range badSessions {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(sessionsDir, name)
			dir := t.TempDir()
			code, stdout, stderr := cli(t, "", "import", "--store", dir, path)
			if want.at == "import" {
				if code != exitFailure || stderr != want.message {
					t.Fatalf("import: exit %d, want %d\nstdout: %s\nstderr: %s", code, exitFailure, stdout, stderr)
				}
				if _, out, _ := cli(t, "", "sessions", "--json", "--store", dir); strings.Contains(out, `"id"`) {
					t.Errorf("a refused import left sessions behind: %s", out)
				}
				return
			}
			if code != exitOK {
				t.Fatalf("import: exit %d: %s", code, stderr)
			}
			id := strings.TrimPrefix(strings.TrimSpace(stdout), "imported ")
			code, _, stderr = cli(t, "", "replay", "--store", dir, id)
			if code != exitFailure {
				t.Errorf("replay: exit %d, want %d", code, exitFailure)
			}
			if diff := cmp.Diff(want.message, stderr); diff != "" {
				t.Errorf("replay message mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSessionsByTime lists recorded sessions oldest first, whatever their
// ids, with how each last run stands and its first prompt.
func TestSessionsByTime(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	for _, name := range []string{"model-failed.jsonl", "abort.jsonl", "plain.jsonl", "steering.jsonl"} {
		if code, _, stderr := cli(t, "", "import", "--store", dir, filepath.Join(sessionsDir, name)); code != exitOK {
			t.Fatalf("import %s: %s", name, stderr)
		}
	}
	code, stdout, stderr := cli(t, "", "sessions", "--store", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "SESSION             STEPS  STATUS   UPDATED              FIRST PROMPT\n" +
		"cosmic-walrus-62f4  11     settled  2026-11-23 18:11:08  Look around the workspace, write a short poem to poem.txt, …\n" +
		"crisp-robin-b5d6    7      settled  2026-11-23 18:11:14  Read the notes in this folder.\n" +
		"glad-sparrow-f420   6      stopped  2026-11-23 18:11:49  Think hard about these files.\n" +
		"clever-fern-824d    2      faulted  2026-11-23 18:12:02  Hello?\n"
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestRecordedConfigsLoad: a config a recorded session stored, its tools
// described as they were then, still creates an agent over the command
// line's own tool box, which describes the tools it names.
func TestRecordedConfigsLoad(t *testing.T) {
	set, err := builtin.Open(builtin.Options{Root: t.TempDir(), AllowShell: true, AllowHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	box := dispatch.MustToolBox(append(set.Tools(), dispatch.AskHuman(""))...)
	for name := range recordedSessions {
		t.Run(name, func(t *testing.T) {
			configs := storedConfigs(t, filepath.Join(sessionsDir, name))
			if len(configs) == 0 {
				t.Fatal("no stored config")
			}
			for _, cfg := range configs {
				a, err := conductor.CreateAgent(cfg, conductor.Deps{Model: conductor.Model{Provider: scripted.New()}, Tools: conductor.Tools{Box: box}})
				if err != nil {
					t.Fatalf("stored config refused: %v", err)
				}
				var want []contract.ToolDescriptor
				for _, d := range cfg.Tools {
					tool, _ := box.Lookup(d.Name)
					want = append(want, tool.Descriptor())
				}
				if diff := cmp.Diff(want, a.Config().Tools, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("offered tools are not the box's (-want +got):\n%s", diff)
				}
				_ = a.Close()
			}
		})
	}
}

// storedConfigs returns the config of every submit in an exported
// session.
func storedConfigs(t *testing.T, path string) []contract.AgentConfig {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []contract.AgentConfig
	for line := range strings.Lines(string(data)) {
		var l struct {
			Node struct {
				Record struct {
					Kind string `json:"kind"`
					Body struct {
						Config *contract.AgentConfig `json:"config"`
					} `json:"body"`
				} `json:"record"`
			} `json:"node"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if r := l.Node.Record; r.Kind == "submitted" && r.Body.Config != nil {
			out = append(out, *r.Body.Config)
		}
	}
	return out
}
