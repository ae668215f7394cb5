package store

import (
	"bytes"
	"fmt"
	"syscall"
	"testing"

	"github.com/batonrt/baton/store/vfs"
)

// failSyncFS runs hook inside the next file sync, and fails that sync.
type failSyncFS struct {
	vfs.FS
	hook func()
}

type failSyncFile struct {
	vfs.File
	fs *failSyncFS
}

func (f *failSyncFS) OpenAppend(name string) (vfs.File, error) {
	file, err := f.FS.OpenAppend(name)
	if err != nil {
		return nil, err
	}
	return failSyncFile{file, f}, nil
}

func (f failSyncFile) Sync() error {
	if h := f.fs.hook; h != nil {
		f.fs.hook = nil
		h()
		return fmt.Errorf("sync: %w", syscall.EIO)
	}
	return f.File.Sync()
}

// A commit too large for one frame is made durable by one sync after its
// last frame; a fork at a node of its first frame, made by another
// process while that sync runs, carries the whole commit's objects, not
// only those of the last frame, and so keeps its node when the sync
// fails and the commit is cut off.
func TestForkAtTheFirstFrameOfASplitCommitInFlight(t *testing.T) {
	defer func(v int) { frameSplit = v }(frameSplit)
	frameSplit = 1000
	ctx := t.Context()
	mem := vfs.NewMem()
	hooked := &failSyncFS{FS: mem}
	writer, reader := must(openFileBackend(hooked)), must(openFileBackend(mem))
	defer writer.Close()
	defer reader.Close()
	var objs []Object
	for i := range 6 {
		body := bytes.Repeat([]byte(fmt.Sprint(i)), 300)
		objs = append(objs, Object{Hash: HashOf(body), Bytes: body})
	}
	var forkErr error
	hooked.hook = func() {
		if _, err := reader.Ref(ctx, RefHeads, "s"); err != nil {
			forkErr = err
			return
		}
		forkErr = reader.Commit(ctx, RefHeads, "o", Hash{}, objs[0].Hash, nil)
	}
	if err := writer.Commit(ctx, RefHeads, "s", Hash{}, objs[5].Hash, objs); err == nil {
		t.Fatal("the commit whose sync fails succeeded")
	}
	if forkErr != nil {
		t.Fatalf("fork while the commit was in flight: %v", forkErr)
	}
	for name, b := range map[string]*fileBackend{"the same backend": reader, "one opened after": must(openFileBackend(mem))} {
		if got, err := b.Get(ctx, objs[0].Hash); err != nil || !bytes.Equal(got, objs[0].Bytes) {
			t.Errorf("%s: the fork's node reads %d bytes, %v; want its %d", name, len(got), err, len(objs[0].Bytes))
		}
	}
}
