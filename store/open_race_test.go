package store_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/batonrt/baton/store"
)

const openChildEnv = "BATON_STORE_OPEN_CHILD_DIR"

// openChild is a child of TestConcurrentFirstOpens: it opens the store
// and closes it.
func openChild(dir string) int {
	st, err := store.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := st.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// Processes opening a new folder at once all open it: each writes the
// format file through a temporary file, which another opener clearing
// litter must not take for an interrupted write's.
func TestConcurrentFirstOpens(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("spawns processes; run without -short")
	}
	for round := range 20 {
		dir := filepath.Join(t.TempDir(), "store")
		var wg sync.WaitGroup
		errs := make([]error, 6)
		outs := make([][]byte, len(errs))
		for i := range errs {
			wg.Go(func() {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), openChildEnv+"="+dir)
				outs[i], errs[i] = cmd.CombinedOutput()
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: opener %d failed: %v\n%s", round, i, err, outs[i])
			}
		}
		st := must(store.Open(dir))
		if err := st.Verify(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
