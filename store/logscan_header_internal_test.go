package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"testing"

	"github.com/batonrt/baton/store/vfs"
)

// A frame header whose checksum holds but whose length runs past the
// log's end looks like the start of a write cut short; but whole frames
// after it, the last one ending the log, are no torn tail. Read through
// any window, such a log is damage: its head reads as ErrCorrupt, a
// commit is refused, and nothing is cut, so the frames after the bad
// header are not silently lost.
func TestHeaderRunningPastTheEndWithFramesAfterItRefused(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	b := must(openFileBackend(mem))
	var head Hash
	starts := []int64{0}
	for i := range 4 {
		body := bytes.Repeat([]byte(fmt.Sprint(i)), 50)
		o := Object{Hash: HashOf(body), Bytes: body}
		if i > 0 {
			starts = append(starts, must(mem.Size("logs/s.log")))
		}
		if err := b.Commit(ctx, RefHeads, "s", head, o.Hash, []Object{o}); err != nil {
			t.Fatal(err)
		}
		head = o.Hash
	}
	whole := must(mem.ReadFile("logs/s.log"))
	for _, window := range []int{7, 64 << 10} {
		for i, at := range starts[:len(starts)-1] {
			rest := uint32(int64(len(whole)) - at)
			for _, n := range []uint32{rest - frameOverhead + 1, maxFrame, maxFrame + 1, 1<<32 - 1} {
				t.Run(fmt.Sprintf("window %d/frame %d/length %d", window, i, n), func(t *testing.T) {
					defer func(v int) { scanWindow = v }(scanWindow)
					scanWindow = window
					damaged := bytes.Clone(whole)
					binary.LittleEndian.PutUint32(damaged[at:], n)
					binary.LittleEndian.PutUint32(damaged[at+4:], crc32.Checksum(damaged[at:at+4], castagnoli))
					mem := vfs.NewMem()
					writeLog(t, mem, damaged)
					b, err := openFileBackend(mem)
					if err != nil {
						t.Fatalf("open: %v", err)
					}
					defer b.Close()
					if h, err := b.Ref(ctx, RefHeads, "s"); !errors.Is(err, ErrCorrupt) {
						t.Fatalf("head: got %s, %v; want ErrCorrupt", h, err)
					}
					l, err := b.Lock(ctx, "s")
					if err != nil {
						t.Fatalf("lock: %v", err)
					}
					o := Object{Hash: HashOf([]byte("next")), Bytes: []byte("next")}
					if err := b.Commit(ctx, RefHeads, "s", head, o.Hash, []Object{o}); !errors.Is(err, ErrCorrupt) {
						t.Errorf("commit: got %v, want ErrCorrupt", err)
					}
					if err := l.Close(); err != nil {
						t.Fatal(err)
					}
					if got := must(mem.ReadFile("logs/s.log")); !bytes.Equal(got, damaged) {
						t.Fatalf("the damaged log was changed: %d bytes, was %d", len(got), len(damaged))
					}
				})
			}
		}
	}
}
