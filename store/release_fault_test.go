package store_test

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
)

// A held session's log is closed when its lock goes, by Release or by
// the store's Close; a failure to close it is the store's I/O error,
// which a host tells from others by ErrIO, not the file system's bare
// one.
func TestFailedCloseOfAHeldLogIsErrIO(t *testing.T) {
	for _, by := range []string{"release", "close"} {
		t.Run(by, func(t *testing.T) {
			ctx := t.Context()
			fs := vfs.NewFaulty(vfs.NewMem())
			st := must(store.OpenFS(fs))
			l := must(st.Lease(ctx, "s"))
			if _, err := st.Append(ctx, "s", storetest.Script("r", 1)...); err != nil {
				t.Fatal(err)
			}
			fs.Inject(1, false)
			var err error
			if by == "release" {
				err = l.Release()
			} else {
				err = st.Close()
			}
			if !errors.Is(err, store.ErrIO) || !errors.Is(err, syscall.ENOSPC) || !strings.HasPrefix(err.Error(), "store: ") {
				t.Fatalf("%s that failed to close the log: got %v, want a store error matching ErrIO and ENOSPC", by, err)
			}
		})
	}
}
