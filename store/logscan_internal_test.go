package store

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/batonrt/baton/store/vfs"
)

// A log cut at any byte, read through any window, opens to its last whole
// frame: the tail is cut, the head is that frame's, and every object
// committed before it reads back.
func TestTornTailAtEveryOffset(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	b, err := openFileBackend(mem)
	if err != nil {
		t.Fatal(err)
	}
	var objs []Object
	var ends []int64 // where each commit's frame ends
	var head Hash
	for i := range 5 {
		body := bytes.Repeat([]byte(fmt.Sprint(i)), 40+i*30)
		o := Object{Hash: HashOf(body), Bytes: body}
		if err := b.Commit(ctx, RefHeads, "s", head, o.Hash, []Object{o}); err != nil {
			t.Fatal(err)
		}
		head = o.Hash
		objs = append(objs, o)
		ends = append(ends, must(mem.Size("logs/s.log")))
	}
	whole := must(mem.ReadFile("logs/s.log"))
	for _, window := range []int{7, frameHeader, 64 << 10} {
		t.Run(fmt.Sprintf("window %d", window), func(t *testing.T) {
			defer func(v int) { scanWindow = v }(scanWindow)
			scanWindow = window
			for cut := range int64(len(whole)) {
				kept := 0 // commits whole before cut
				for kept < len(ends) && ends[kept] <= cut {
					kept++
				}
				mem := vfs.NewMem()
				writeLog(t, mem, whole[:cut])
				b, err := openFileBackend(mem)
				if err != nil {
					t.Fatalf("cut at %d: open: %v", cut, err)
				}
				want := int64(0)
				if kept > 0 {
					want = ends[kept-1]
				}
				if got := must(mem.Size("logs/s.log")); got != want {
					t.Fatalf("cut at %d: log is %d bytes after open, want %d", cut, got, want)
				}
				got, err := b.Ref(ctx, RefHeads, "s")
				switch {
				case kept == 0 && err == nil:
					t.Fatalf("cut at %d: head %s with no whole commit", cut, got)
				case kept > 0 && err != nil:
					t.Fatalf("cut at %d: head: %v", cut, err)
				case kept > 0 && got != objs[kept-1].Hash:
					t.Fatalf("cut at %d: head %s, want commit %d's", cut, got, kept)
				}
				for _, o := range objs[:kept] {
					if got := must(b.Get(ctx, o.Hash)); !bytes.Equal(got, o.Bytes) {
						t.Fatalf("cut at %d: object %s read back different", cut, o.Hash)
					}
				}
			}
		})
	}
}

// A byte flipped anywhere in a log but its last frame is damage, read
// through any window: the head reads as ErrCorrupt and nothing is cut,
// so no committed record is silently lost.
func TestDamageAtEveryOffsetRefused(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	b, err := openFileBackend(mem)
	if err != nil {
		t.Fatal(err)
	}
	var head Hash
	var lastStart int64
	for i := range 4 {
		body := bytes.Repeat([]byte(fmt.Sprint(i)), 50)
		o := Object{Hash: HashOf(body), Bytes: body}
		if i > 0 {
			lastStart = must(mem.Size("logs/s.log"))
		}
		if err := b.Commit(ctx, RefHeads, "s", head, o.Hash, []Object{o}); err != nil {
			t.Fatal(err)
		}
		head = o.Hash
	}
	whole := must(mem.ReadFile("logs/s.log"))
	for _, window := range []int{7, 64 << 10} {
		t.Run(fmt.Sprintf("window %d", window), func(t *testing.T) {
			defer func(v int) { scanWindow = v }(scanWindow)
			scanWindow = window
			for at := range lastStart {
				damaged := bytes.Clone(whole)
				damaged[at] ^= 0x10
				mem := vfs.NewMem()
				writeLog(t, mem, damaged)
				b, err := openFileBackend(mem)
				if err != nil {
					t.Fatalf("flip at %d: open: %v", at, err)
				}
				if _, err := b.Ref(ctx, RefHeads, "s"); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("flip at %d: head: got %v, want ErrCorrupt", at, err)
				}
				if got := must(mem.ReadFile("logs/s.log")); !bytes.Equal(got, damaged) {
					t.Fatalf("flip at %d: the damaged log was changed", at)
				}
			}
		})
	}
}

func writeLog(t *testing.T, mem *vfs.Mem, b []byte) {
	t.Helper()
	if err := mem.MkdirAll("logs"); err != nil {
		t.Fatal(err)
	}
	f := must(mem.Create("logs/s.log"))
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
