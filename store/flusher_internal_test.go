package store

import (
	"testing"

	"github.com/batonrt/baton/store/vfs"
)

// askedFlushFS records the folder a flusher is asked for.
type askedFlushFS struct {
	vfs.FS
	asked []string
}

func (a *askedFlushFS) OpenFlusher(dir string) (vfs.Flusher, error) {
	a.asked = append(a.asked, dir)
	return nopFlusher{}, nil
}

type nopFlusher struct{}

func (nopFlusher) Flush() error { return nil }
func (nopFlusher) Close() error { return nil }

// The store flushes the file system that holds its logs, which may be
// another than the one holding the store's folder.
func TestFlusherOpenedOnTheLogsFolder(t *testing.T) {
	fsys := &askedFlushFS{FS: vfs.NewMem()}
	b, err := openFileBackend(fsys)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if len(fsys.asked) != 1 || fsys.asked[0] != "logs" {
		t.Errorf("flushers opened for %q, want one for logs", fsys.asked)
	}
}
