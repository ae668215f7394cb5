package store_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/vfs"
)

// largeLog writes one session's log of frames frames of size bytes each
// (one object per frame) and returns the objects.
func largeLog(tb testing.TB, fsys vfs.FS, frames, size int) []store.Object {
	tb.Helper()
	ctx := context.Background()
	b, err := store.OpenFSBackend(fsys)
	if err != nil {
		tb.Fatal(err)
	}
	defer b.Close()
	r := rand.New(rand.NewPCG(1, 2))
	var objs []store.Object
	var head store.Hash
	for range frames {
		p := make([]byte, size)
		for i := range p {
			p[i] = byte(r.Uint32())
		}
		o := store.Object{Hash: store.HashOf(p), Bytes: p}
		if err := b.Commit(ctx, store.RefHeads, "big", head, o.Hash, []store.Object{o}); err != nil {
			tb.Fatal(err)
		}
		head = o.Hash
		objs = append(objs, o)
	}
	return objs
}

// openAndReadHead opens a backend on fsys and reads the big session's
// head, which reads its log through.
func openAndReadHead(tb testing.TB, fsys vfs.FS) (store.Backend, store.Hash) {
	tb.Helper()
	b, err := store.OpenFSBackend(fsys)
	if err != nil {
		tb.Fatal(err)
	}
	h, err := b.Ref(context.Background(), store.RefHeads, "big")
	if err != nil {
		tb.Fatal(err)
	}
	return b, h
}

// Opening a session reads its log a window at a time: the memory it
// takes is bounded by its largest frame, not by the log's length, and
// every object is still found where the log holds it.
func TestOpeningALargeLogDoesNotHoldIt(t *testing.T) {
	const frames, size = 256, 32 << 10 // an 8 MiB log
	mem := vfs.NewMem()
	objs := largeLog(t, mem, frames, size)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b, head := openAndReadHead(t, mem)
	runtime.ReadMemStats(&after)
	defer b.Close()
	if head != objs[len(objs)-1].Hash {
		t.Fatalf("head %s, want %s", head, objs[len(objs)-1].Hash)
	}
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(frames*size/8); got > limit {
		t.Errorf("opening a %d-byte log allocated %d bytes, want at most %d", frames*size, got, limit)
	} else {
		t.Logf("opening a %d-byte log allocated %d bytes", frames*size, got)
	}
	for _, o := range objs {
		got, err := b.Get(t.Context(), o.Hash)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, o.Bytes) {
			t.Fatalf("object %s read back different", o.Hash)
		}
	}
}

// BenchmarkOpenLargeLog reports what opening a 64 MiB session and reading
// its head allocates.
func BenchmarkOpenLargeLog(b *testing.B) {
	mem := vfs.NewMem()
	largeLog(b, mem, 1024, 64<<10)
	b.ReportAllocs()
	for b.Loop() {
		st, _ := openAndReadHead(b, mem)
		st.Close()
	}
}

// A torn tail whose last four bytes read as the length of a frame
// starting at the log's first byte, as any four bytes of a torn write's
// payload may, is cut on open like any other, in memory bounded as for a
// whole log: the trailer is a hint to check, not a frame to read whole.
func TestTornTailPointingBackCutInBoundedMemory(t *testing.T) {
	const frames, size = 256, 32 << 10
	// The folder is the operating system's: the in-memory FS copies a
	// whole file to make a cut durable, which would be counted here.
	mem := vfs.OS(t.TempDir())
	objs := largeLog(t, mem, frames, size)
	log := must(mem.ReadFile("logs/big.log"))
	whole := int64(len(log))
	// The first 96 bytes of a frame, then four whose value points back
	// to offset 0.
	tail := append(bytes.Clone(log[:96]), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(tail[96:], uint32(whole+int64(len(tail))-16))
	f := must(mem.OpenAppend("logs/big.log"))
	if _, err := f.Write(tail); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b := must(store.OpenFSBackend(mem))
	runtime.ReadMemStats(&after)
	defer b.Close()
	if got := must(mem.Size("logs/big.log")); got != whole {
		t.Errorf("log is %d bytes after open, want the torn tail cut to %d", got, whole)
	}
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(frames*size/8); got > limit {
		t.Errorf("opening a %d-byte log with a torn tail allocated %d bytes, want at most %d", whole, got, limit)
	}
	if head := must(b.Ref(t.Context(), store.RefHeads, "big")); head != objs[len(objs)-1].Hash {
		t.Errorf("head %s, want %s", head, objs[len(objs)-1].Hash)
	}
}
