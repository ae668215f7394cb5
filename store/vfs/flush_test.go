package vfs_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/store/vfs"
)

// The operating system's FS flushes what its files hold; a flush it
// cannot make is an error, never a silent success.
func TestOSFlush(t *testing.T) {
	dir := t.TempDir()
	fsys, ok := vfs.OS(dir).(vfs.FlushFS)
	if !ok {
		t.Fatal("the OS file system does not offer Flush")
	}
	fl, err := fsys.OpenFlusher(".")
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no file system flush on this platform; File.Sync is used")
	}
	if err != nil {
		t.Fatalf("open flusher: %v", err)
	}
	defer fl.Close()
	f, err := fsys.OpenAppend("log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write([]byte("frame")); err != nil {
		t.Fatal(err)
	}
	if err := fl.Flush(); err != nil {
		t.Fatalf("flush: %v", err)
	}
	gone := vfs.OS(filepath.Join(dir, "missing")).(vfs.FlushFS)
	if _, err := gone.OpenFlusher("."); !errors.Is(err, vfs.ErrNotExist) {
		t.Errorf("flush of a missing folder: %v, want ErrNotExist", err)
	}
}
