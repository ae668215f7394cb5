package main

import (
	"os"
	"strings"
	"testing"
)

// TestRunTimeoutFlags: a server that never answers fails the run after
// --first-chunk-timeout, tried --retries more times, not after minutes.
func TestRunTimeoutFlags(t *testing.T) {
	isolate(t)
	script := writeScript(t, `{"replies": [{"fail": {"hang": true}}, {"fail": {"hang": true}}, {"fail": {"hang": true}}]}`)
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(),
		"--first-chunk-timeout", "100ms", "--retries", "1", "hello")
	if code != exitFailure {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if n := strings.Count(stdout, "·· retrying the model: timeout"); n != 1 {
		t.Errorf("%d retries shown, want 1:\n%s", n, stdout)
	}
	if !strings.Contains(stdout, "── faulted: the model failed: timeout") {
		t.Errorf("stdout:\n%s", stdout)
	}
	// The error is shown once, on the run's own line.
	if strings.Contains(stderr, "timeout") {
		t.Errorf("stderr repeats the error:\n%s", stderr)
	}
}

// TestCtrlCStopsBackoff: the first Ctrl-C while the model's retry waits
// out a long backoff stops the run at once.
func TestCtrlCStopsBackoff(t *testing.T) {
	isolate(t)
	script := writeScript(t, `{"replies": [{"fail": {"status": 503, "retry_after": "90s", "message": "overloaded"}}, {"text": "never"}]}`)
	s := startInteractive(t, "run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(), "hello")
	s.out.waitFor(t, "·· retrying the model: server (HTTP 503): overloaded")
	s.interrupts <- os.Interrupt
	if code := s.wait(t); code != exitStopped {
		t.Errorf("exit %d, want %d\n%s", code, exitStopped, s.err.String())
	}
	if out := s.out.String(); strings.Contains(out, "never") || !strings.Contains(out, "── stopped") {
		t.Errorf("stdout:\n%s", out)
	}
}

// TestServeTimeoutFlags: serve takes the same flags: a model that never
// answers ends the client's stream with a run error after
// --first-chunk-timeout and --retries more tries, and the next message
// on the thread starts a new run.
func TestServeTimeoutFlags(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	script := writeScript(t, `{"replies": [{"fail": {"hang": true}}, {"fail": {"hang": true}}, {"text": "Back again."}]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(),
		"--first-chunk-timeout", "100ms", "--retries", "1")
	code, body := node.post(t, "slow", "m1", "hello")
	if code != 200 || !strings.Contains(body, `"RUN_ERROR"`) || !strings.Contains(body, "timeout") {
		t.Fatalf("stream (%d) does not end with a timeout error:\n%s", code, body)
	}
	if n := strings.Count(body, `"baton.model_retry"`); n != 1 {
		t.Errorf("%d retries streamed, want 1:\n%s", n, body)
	}
	code, body = node.post(t, "slow", "m2", "try again")
	if code != 200 || !strings.Contains(body, `"delta":"again."`) || !strings.Contains(body, `"RUN_FINISHED"`) {
		t.Errorf("the next message did not start a new run (%d):\n%s", code, body)
	}
}
