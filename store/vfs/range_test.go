package vfs_test

import (
	"testing"

	"github.com/batonrt/baton/store/vfs"
)

// A negative offset or size is bad input to every FS: an error, as the
// operating system's file system gives, never a panic.
func TestNegativeOffsetsAreErrors(t *testing.T) {
	for name, fsys := range map[string]vfs.FS{"Mem": vfs.NewMem(), "OS": vfs.OS(t.TempDir())} {
		t.Run(name, func(t *testing.T) {
			f, err := fsys.Create("f")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Write([]byte("hello")); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			if n, err := fsys.ReadAt("f", make([]byte, 2), -1); err == nil {
				t.Errorf("ReadAt at offset -1 = %d, nil; want an error", n)
			}
			if err := fsys.Truncate("f", -1); err == nil {
				t.Error("Truncate to -1 bytes: no error")
			}
			if size, err := fsys.Size("f"); err != nil || size != 5 {
				t.Errorf("size after the refused calls = %d, %v; want 5", size, err)
			}
		})
	}
}
