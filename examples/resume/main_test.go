package main

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain plays the child when the example runs itself: under go test
// the executable it starts is this test binary, not the program.
func TestMain(m *testing.M) {
	if dir := os.Getenv("RESUME_EXAMPLE_CHILD"); dir != "" {
		child(dir)
		return
	}
	goleak.VerifyTestMain(m)
}

// The program's output, the child's lines included, so a change that
// breaks the crash or its recovery fails here.
func Example() {
	main()
	// Output:
	// child: deploying v2 ... and crashing
	// child process died: exit status 3
	// resumed: deploy got "error: indeterminate: interrupted while running; the call may or may not have taken effect"
	// resumed run settled: The deploy was interrupted; check the servers before retrying.
}
