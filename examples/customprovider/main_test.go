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
	// hello there -> HELLO THERE
	// what time is it? -> The clock says 3:04PM.
}
