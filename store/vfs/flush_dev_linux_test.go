package vfs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func devOf(t *testing.T, fi os.FileInfo) uint64 {
	t.Helper()
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t.Skip("no device numbers here")
	}
	return uint64(st.Dev)
}

// A flusher flushes the file system holding the folder it was opened
// for, which need not be the root's: a store's logs folder may be a
// symlink or a mount onto another disk, and a flush of the root's file
// system would acknowledge commits to the logs without syncing them.
func TestFlusherFlushesTheFileSystemOfItsFolder(t *testing.T) {
	other, err := os.MkdirTemp("/dev/shm", "vfs-flush-")
	if err != nil {
		t.Skip("no /dev/shm to put the folder on another file system")
	}
	defer os.RemoveAll(other)
	root := t.TempDir()
	want := devOf(t, must(os.Stat(other)))
	if devOf(t, must(os.Stat(root))) == want {
		t.Skip("/dev/shm shares a file system with the temporary folder")
	}
	if err := os.Symlink(other, filepath.Join(root, "logs")); err != nil {
		t.Fatal(err)
	}
	fl, err := OS(root).(FlushFS).OpenFlusher("logs")
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no file system flush on this kernel")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	if got := devOf(t, must(fl.(dirFlusher).d.Stat())); got != want {
		t.Errorf("the flusher for logs flushes device %d, the logs are on %d", got, want)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
