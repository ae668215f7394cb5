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
	// approve delete_file {"path":"build/cache"}? true
	// approve delete_file {"path":"/etc/passwd"}? false
	// result c1: deleted build/cache
	// result c2: error: the user denied this call: outside the project
	// answer: Cleared the cache; I was not allowed to touch /etc/passwd.
}
