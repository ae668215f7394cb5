package main

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The program's output, so a change that breaks the example fails here.
func Example() {
	main()
	// Output:
	// user             How do retries work?
	// assistant        Searching.
	// tool             3 results for retries
	// tool             skipped: steered
	// user      steer  keep it short, please
	// assistant        Here is a short answer about retries, as you asked.
}
