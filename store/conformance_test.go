package store_test

import (
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
)

func TestConformanceMemory(t *testing.T) {
	storetest.RunBackend(t, func(t *testing.T) store.Backend { return store.NewMemoryBackend() })
}

// NewMemory's store names what Record takes only when it is read: it
// keeps every rule as the same backend under store.New does.
func TestConformanceNewMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return store.NewMemory() })
}

func TestConformanceFileOS(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		st, err := store.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return st
	})
}

func TestConformanceFileMem(t *testing.T) {
	storetest.RunBackend(t, func(t *testing.T) store.Backend {
		b, err := store.OpenFSBackend(vfs.NewMem())
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}
