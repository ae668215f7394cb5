package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// cli runs the command line in process with a fresh environment.
func cli(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// isolate points every default location at a temporary folder.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("BATON_HOME", filepath.Join(home, ".baton"))
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("ANTHROPIC_API_KEY", "")
	return home
}

// writeScript writes a provider/scripted JSON script to a file.
func writeScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fixedSession drives the demo script on a fixed clock and counting ids,
// so its records, and so its node hashes, are the same on every run.
func fixedSession(t testing.TB, dir, id string) {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte(demoNotes), 0o644); err != nil {
		t.Fatal(err)
	}
	tools, err := builtin.Open(builtin.Options{Root: ws})
	if err != nil {
		t.Fatal(err)
	}
	defer tools.Close()
	script := fastDemo(t)
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
	clock := &conductor.FixedClock{Start: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}
	spec := driveSpec{store: st, provider: script, model: "scripted", sessionID: id, prompt: demoPrompt, tools: tools.Tools(), clock: clock, ids: &conductor.CountingIDs{}}
	if _, err := a.drive(context.Background(), spec); err != nil {
		t.Fatalf("drive: %v\n%s%s", err, out.String(), errb.String())
	}
}

// damageLog flips a byte in the first commit of a session's log, with
// whole commits after it, which the store reports as corruption.
func damageLog(t *testing.T, dir, id string) {
	t.Helper()
	p := filepath.Join(dir, "logs", id+".log")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[20] ^= 0x20
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

// syncBuffer is a writer several goroutines share that tells a waiter
// when some text has appeared.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	ch  chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{ch: make(chan struct{}, 1)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case b.ch <- struct{}{}:
	default:
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor blocks until the buffer holds s, failing the test after a
// generous bound so a broken build cannot hang.
func (b *syncBuffer) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for !strings.Contains(b.String(), s) {
		select {
		case <-b.ch:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("never saw %q in:\n%s", s, b.String())
		}
	}
}

// fastDemo is the demo script without its delays.
func fastDemo(t testing.TB) *scripted.Script {
	t.Helper()
	var j struct {
		Replies []scripted.Reply `json:"replies"`
	}
	if err := json.Unmarshal(demoScript, &j); err != nil {
		t.Fatal(err)
	}
	for i := range j.Replies {
		j.Replies[i].FirstDelay, j.Replies[i].ChunkDelay = 0, 0
	}
	return scripted.New(j.Replies...)
}

// skipShort skips a slow test (one that spawns processes or a browser)
// under -short, except when CI is set: CI runs everything.
func skipShort(t *testing.T, why string) {
	t.Helper()
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip(why + "; run without -short")
	}
}
