package main

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// childArgsEnv makes the test binary run the command line with these
// arguments (a JSON list) instead of the tests: how tests start real
// baton processes, for instance serve nodes to kill.
const childArgsEnv = "BATON_TEST_CHILD_ARGS"

// mainArgsEnv makes the test binary be the baton command itself: main
// runs with these arguments (a JSON list) as its command line, with the
// signal handling, terminal checks and exit that the built command has,
// so a test sees what a user of the binary sees.
const mainArgsEnv = "BATON_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if raw := os.Getenv(childArgsEnv); raw != "" {
		var args []string
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			panic(err)
		}
		os.Exit(run(context.Background(), args, os.Stdin, os.Stdout, os.Stderr))
	}
	if raw := os.Getenv(mainArgsEnv); raw != "" {
		var args []string
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			panic(err)
		}
		os.Args = append([]string{"baton"}, args...)
		main()
	}
	goleak.VerifyTestMain(m)
}
