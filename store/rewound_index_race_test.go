package store_test

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/store/vfs"
)

// readHookFS runs a hook before each whole-log read from the start (the
// reads reindex makes), once armed.
type readHookFS struct {
	vfs.FS
	hook atomic.Pointer[func(name string)]
}

func (r *readHookFS) ReadAt(name string, p []byte, off int64) (int, error) {
	if h := r.hook.Load(); h != nil && off == 0 && len(p) > 12 {
		(*h)(name)
	}
	return r.FS.ReadAt(name, p, off)
}

// TestRewoundLogObjectsFoundByConcurrentGets: as
// TestRewoundLogKeepsObjectsOtherLogsHold, with two Gets of the shared
// object at once. reindex clears forgot before it reads the logs again,
// so the second Get, missing the object while the first still reads,
// finds nothing to reindex and answers ErrNotFound for an object session
// m holds.
func TestRewoundLogObjectsFoundByConcurrentGets(t *testing.T) {
	for i := 0; i < 8; i++ {
		rewoundConcurrentGets(t)
		if t.Failed() {
			return
		}
	}
}

func rewoundConcurrentGets(t *testing.T) {
	ctx := context.Background()
	mem := vfs.NewMem()
	rfs := &readHookFS{FS: mem}
	reader, shared := rewoundWithSharedObject(t, mem, rfs)

	// The first Get's reindex stops on its first log until the second
	// Get has begun, and on the next until the second has answered (or
	// a moment has passed, should the second wait for the first).
	entered, release, secondDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var reads atomic.Int32
	hook := func(string) {
		if reads.Add(1) == 1 {
			close(entered)
			<-release
			return
		}
		select {
		case <-secondDone:
		case <-time.After(150 * time.Millisecond):
		}
	}
	rfs.hook.Store(&hook)
	get := func() error {
		got, err := reader.Get(ctx, shared.Hash)
		if err == nil && !bytes.Equal(got, shared.Bytes) {
			t.Errorf("Get of shared: %q", got)
		}
		return err
	}
	first := make(chan error, 1)
	go func() { first <- get() }()
	<-entered
	second := make(chan error, 1)
	go func() {
		err := get()
		close(secondDone)
		second <- err
	}()
	time.Sleep(50 * time.Millisecond) // the second Get waits on the log the first reads
	close(release)
	if err := <-first; err != nil {
		t.Errorf("first Get of an object session m holds: %v", err)
	}
	if err := <-second; err != nil {
		t.Errorf("second, concurrent Get of an object session m holds: %v", err)
	}
	rfs.hook.Store(nil)
}
