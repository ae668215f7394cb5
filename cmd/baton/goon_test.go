package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

const failingScript = `{"replies": [{"fail": {"status": 400, "message": "bad request"}}]}`

// TestRunGoesOnAfterFailure: a session whose run faulted goes on with the
// next prompt in a new process: the model is called and the run settles.
func TestRunGoesOnAfterFailure(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, failingScript), "--store", dir, "--workspace", ws, "hello")
	if code != exitFailure {
		t.Fatalf("failing run: exit %d: %s", code, stderr)
	}
	id := strings.Fields(stderr)[1]
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, `{"replies": [{"text": "Here now."}]}`), "--store", dir, "--workspace", ws, "--session", id, "try again")
	if code != exitOK || !strings.Contains(stdout, "Here now.") {
		t.Fatalf("going on: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	code, stdout, _ = cli(t, "", "replay", "--store", dir, id)
	if code != exitOK {
		t.Errorf("replay: exit %d %s", code, stdout)
	}
}

// TestServeGoesOnAfterFailure: a thread whose run faulted in one serve
// process is answered by the next one with a new run, not an error.
func TestServeGoesOnAfterFailure(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	post := func(script *scripted.Script, text string) string {
		t.Helper()
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		addr, stop := serving(t, func(ctx context.Context, a *app, ln net.Listener) error {
			return a.serveOn(ctx, ln, st, script, "scripted", nil)
		})
		defer stop()
		body := `{"threadId":"thread-1","runId":"r-` + text + `","messages":[{"id":"m-` + text + `","role":"user","content":"` + text + `"}]}`
		resp, err := http.Post(addr+"/", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		stream, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: status %d: %s", text, resp.StatusCode, stream)
		}
		return string(stream)
	}
	if s := post(scripted.New(scripted.Reply{Fail: &scripted.Failure{Status: 400, Message: "bad request"}}), "first"); !strings.Contains(s, "RUN_ERROR") {
		t.Fatalf("first run did not fail:\n%s", s)
	}
	if s := post(scripted.New(scripted.Reply{Text: "Here now."}), "again"); strings.Contains(s, "RUN_ERROR") || !strings.Contains(s, "RUN_FINISHED") {
		t.Fatalf("second run:\n%s", s)
	}
}

// forkCrashed imports a session whose process was killed mid-run into
// the store in dir and forks it, as session "crashed", at step 6: the
// shell call's start, where the process died.
func forkCrashed(t *testing.T, dir string) {
	t.Helper()
	if code, _, stderr := cli(t, "", "import", "--store", dir, filepath.Join(sessionsDir, "resumed-crash.jsonl")); code != exitOK {
		t.Fatal(stderr)
	}
	if code, _, stderr := cli(t, "", "fork", "--store", dir, "--as", "crashed", "mellow-river-a7f9", "6"); code != exitOK {
		t.Fatal(stderr)
	}
}

// TestRunSaysWhatResumingDoes: going on with a session whose process died
// mid-run first finishes that run, saying so, and shows its events before
// the new prompt's.
func TestRunSaysWhatResumingDoes(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	forkCrashed(t, dir)
	script := writeScript(t, `{"replies": [{"text": "The wait was cut short."}, {"text": "Still here."}]}`)
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--session", "crashed", "again?")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	note := "baton: session crashed stopped mid-run (awaiting_tools); finishing that run first: shell was interrupted and is reported to the model as such; then the model goes on.\n"
	first, rest, ok := strings.Cut(stdout, "The wait was cut short.")
	if !ok || !strings.HasPrefix(first, note) || !strings.Contains(first, "indeterminate: interrupted while running") || !strings.Contains(rest, "Still here.") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestRunOnSessionDrivenElsewhere: going on with a session another
// process holds says only that it is driven elsewhere, not that baton
// finishes its run first, which it does not.
func TestRunOnSessionDrivenElsewhere(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	forkCrashed(t, dir)
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	release, err := st.Lock(context.Background(), "crashed")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	script := writeScript(t, `{"replies": [{"text": "Never asked for."}]}`)
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--session", "crashed", "again?")
	if code != exitFailure || !strings.Contains(stderr, `baton: session "crashed" is being driven by another baton process`) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if strings.Contains(stdout+stderr, "finishing that run first") {
		t.Errorf("says it finishes a run another process drives:\n%s%s", stdout, stderr)
	}
}
