package main

import (
	"strings"
	"testing"
)

// --temperature reaches the config the run records (and so the provider),
// and a value no provider takes is a usage error.
func TestRunTemperature(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	args := []string{"run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir()}
	if code, _, stderr := cli(t, "", append(args, "--temperature", "0.25", "hello")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, stdout, stderr := cli(t, "", "export", "--store", dir)
	if code != exitOK || !strings.Contains(stdout, `"sampling":{"temperature":0.25}`) {
		t.Errorf("export: exit %d, stderr %q; the recorded config has no temperature 0.25:\n%s", code, stderr, stdout)
	}
	for _, v := range []string{"-0.5", "2.5", "hot"} {
		code, stdout, stderr := cli(t, "", append(args, "--temperature", v, "hello")...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, `for flag -temperature: `) {
			t.Errorf("--temperature %s: exit %d, stdout %q, stderr %q", v, code, stdout, stderr)
		}
	}
}
