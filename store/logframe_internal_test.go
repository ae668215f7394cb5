package store

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/batonrt/baton/store/vfs"
)

// A commit bigger than a frame is written as several frames, the last
// moving the ref, and reads back whole after a reopen.
func TestCommitSplitIntoFrames(t *testing.T) {
	defer func(v int) { frameSplit = v }(frameSplit)
	frameSplit = 1000
	ctx := t.Context()
	mem := vfs.NewMem()
	b, err := openFileBackend(mem)
	if err != nil {
		t.Fatal(err)
	}
	var objs []Object
	for i := range 20 {
		body := bytes.Repeat([]byte(fmt.Sprint(i)), 300)
		objs = append(objs, Object{Hash: HashOf(body), Bytes: body})
	}
	if err := b.Commit(ctx, RefHeads, "s", Hash{}, objs[19].Hash, objs); err != nil {
		t.Fatal(err)
	}
	big := Object{Hash: HashOf(make([]byte, 2000)), Bytes: make([]byte, 2000)}
	if err := b.Commit(ctx, RefHeads, "s", objs[19].Hash, big.Hash, []Object{big}); err == nil {
		t.Fatal("an object bigger than a frame was accepted")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := openFileBackend(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if h, err := again.Ref(ctx, RefHeads, "s"); err != nil || h != objs[19].Hash {
		t.Fatalf("ref = %s, %v", h, err)
	}
	for _, o := range objs {
		got, err := again.Get(ctx, o.Hash)
		if err != nil || !bytes.Equal(got, o.Bytes) {
			t.Fatalf("object %s: %v", o.Hash, err)
		}
	}
	log, err := mem.ReadFile("logs/s.log")
	if err != nil {
		t.Fatal(err)
	}
	frames := 0
	for off := 0; off < len(log); frames++ {
		fr, state, err := readFrame(log[off:], int64(off))
		if state != frameWhole {
			t.Fatalf("frame %d at %d: %v", frames, off, err)
		}
		off += int(fr.size)
	}
	if frames < 6 {
		t.Fatalf("6,000 bytes of objects in %d frames of at most 1,000", frames)
	}
}
