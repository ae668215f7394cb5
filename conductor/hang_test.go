package conductor_test

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

// returnsOrDump waits for ch to say that what returned, and fails the
// test with every goroutine's stack when it has not within 5s: a hang
// is shown where each side of it waits. The stacks go to stderr at once,
// as the test's cleanup, which closes the agents, may hang as well.
func returnsOrDump(t *testing.T, what string, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(5 * time.Second):
		buf := make([]byte, 1<<20)
		fmt.Fprintf(os.Stderr, "%s: %s never returned; goroutines:\n%s\n", t.Name(), what, buf[:runtime.Stack(buf, true)])
		t.Fatalf("%s never returned: the agents wait on each other (goroutines on stderr)", what)
		return nil
	}
}
