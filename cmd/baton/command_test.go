package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// asBuilt runs the baton command as a process of its own (the test binary
// made baton by mainArgsEnv) in the test's environment, and returns its
// exit code and output.
func asBuilt(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return asBuiltUnder(t, nil, stdin, args...)
}

// asBuiltUnder is asBuilt with the process started by the command line
// under (a program and its arguments, before the binary), nil for none.
func asBuiltUnder(t *testing.T, under []string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	line := append(slices.Clone(under), os.Args[0], "-test.run=^$")
	cmd := exec.CommandContext(ctx, line[0], line[1:]...)
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+string(raw))
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.Exited():
		code = exit.ExitCode()
	default:
		t.Fatalf("baton %s: %v\nstderr:\n%s", strings.Join(args, " "), err, errb.String())
	}
	return code, out.String(), errb.String()
}
