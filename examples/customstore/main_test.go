package main

import (
	"io"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The program's output: a commit for each of the run's two steps, so a
// change that breaks the example fails here.
func Example() {
	main()
	// Output:
	// audit: heads of audited moved, objects written: 1
	// audit: heads of audited moved, objects written: 1
	// 2 records stored
}

func TestAuditBackendConforms(t *testing.T) {
	storetest.RunBackend(t, func(t *testing.T) store.Backend { return newAuditBackend(io.Discard) })
}
