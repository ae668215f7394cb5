package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
)

// A delegate's session is driven by its parent, whose record links the
// child's chain where the call settled: run --session on the child would
// move the child's head past that link, so it is refused, naming the
// parent, and the session is left as it was. Reading it stays allowed.
func TestRunRefusesADelegatedSession(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("fjords"), 0o644); err != nil {
		t.Fatal(err)
	}
	agents := writeAgents(t, `{"agents": [
	  {"name": "reader", "description": "Reads files.", "system": "You read files.", "tools": ["read_file"]}
	]}`)
	script := writeScript(t, `{"replies": [
	  {"text": "Asking the reader.", "tool_calls": [{"id": "c1", "name": "delegate_reader", "arguments": {"task": "read notes.txt"}}]},
	  {"text": "Reading.", "tool_calls": [{"id": "r1", "name": "read_file", "arguments": {"path": "notes.txt"}}]},
	  {"text": "It says fjords."},
	  {"text": "The notes are about fjords."},
	  {"text": "Driven as a conversation of its own."}
	]}`)
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--agents", agents, "summarize", "notes")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	parent := strings.Fields(stderr)[1]
	child := childOf(t, dir, parent)
	before := headOf(t, dir, child)

	code, _, stderr = cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--session", child, "go on")
	want := `baton: session "` + child + `" is the run of a delegate call of session "` + parent + `", which drives it; go on from the top: baton run --store ` + dir + ` --session ` + parent + ` "..."` + "\n"
	if code != exitFailure || stderr != want {
		t.Errorf("run --session on a delegate's session: exit %d\n got %q\nwant %q", code, stderr, want)
	}
	if after := headOf(t, dir, child); after != before {
		t.Errorf("the child's head moved from %s to %s", before, after)
	}
	for _, cmd := range [][]string{{"log"}, {"log", "--graph"}, {"replay"}, {"export"}} {
		args := append(append(cmd, "--store", dir), child)
		if code, _, stderr := cli(t, "", args...); code != exitOK {
			t.Errorf("%s of the child: exit %d %s", strings.Join(cmd, " "), code, stderr)
		}
	}
	code, _, stderr = cli(t, "", "replay", "--store", dir, parent)
	if code != exitOK {
		t.Errorf("replay of the parent: exit %d %s", code, stderr)
	}
}

func childOf(t *testing.T, dir, parent string) string {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ids, err := st.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if strings.HasPrefix(id, parent+"/") {
			return id
		}
	}
	t.Fatalf("no session of a delegate of %s among %q", parent, ids)
	return ""
}

func headOf(t *testing.T, dir, id string) store.Hash {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h, err := st.Head(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
