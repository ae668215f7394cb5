package store

import (
	"encoding/binary"
	"errors"
	"io"

	"github.com/batonrt/baton/store/vfs"
)

// scanWindow is how much of a log a scan reads at once; a larger frame is
// read whole. A variable so tests can lower it.
var scanWindow = 64 << 10

// logReader reads a log's frames through a window, so that reading a log
// holds its largest frame in memory rather than the whole log: a session
// of a hundred megabytes opens in a window's worth.
type logReader struct {
	fs   vfs.FS
	name string
	size int64  // the log's length when reading began: frames end there
	buf  []byte // the log's bytes from at on
	at   int64
}

func newLogReader(fsys vfs.FS, name string, size int64) *logReader {
	return &logReader{fs: fsys, name: name, size: size}
}

// frame decodes the frame at off, as readFrame would with the rest of the
// log in hand.
func (r *logReader) frame(off int64) (frame, frameState, error) {
	rest := r.size - off
	if rest < frameOverhead {
		return frame{}, frameTorn, nil
	}
	h, err := r.bytes(off, frameHeader)
	if err != nil {
		return frame{}, frameUnreadable, err
	}
	n, ok := frameLen(h)
	if !ok {
		zero, err := r.zeroFrom(off)
		switch {
		case err != nil:
			return frame{}, frameUnreadable, err
		case zero:
			return frame{}, frameTorn, nil
		}
		return frame{}, frameBad, badHeader(off)
	}
	if n > maxFrame || int64(n)+frameOverhead > rest {
		return r.pastEnd(off)
	}
	size := int64(n) + frameOverhead
	b, err := r.bytes(off, int(size))
	if err != nil {
		return frame{}, frameUnreadable, err
	}
	return judgeFrame(b, off, size == rest)
}

// pastEnd judges the frame at off whose header holds but whose length
// runs past the log's end. A write cut short leaves that, and nothing
// after it; a whole frame ending the log after off, which the log's last
// four bytes name, is no part of a torn write: the header is damage then,
// and cutting the log there would lose the frames after it. Only a frame
// whose header holds and names the length the trailer does is read whole.
func (r *logReader) pastEnd(off int64) (frame, frameState, error) {
	t, err := r.bytes(r.size-frameTrailer, frameTrailer)
	if err != nil {
		return frame{}, frameUnreadable, err
	}
	n := binary.LittleEndian.Uint32(t)
	start := r.size - int64(n) - frameOverhead
	if start <= off {
		return frame{}, frameTorn, nil
	}
	h, err := r.bytes(start, frameHeader)
	if err != nil {
		return frame{}, frameUnreadable, err
	}
	if m, ok := frameLen(h); !ok || m != n {
		return frame{}, frameTorn, nil
	}
	b, err := r.bytes(start, int(r.size-start))
	if err != nil {
		return frame{}, frameUnreadable, err
	}
	if _, state, _ := judgeFrame(b, start, true); state != frameWhole {
		return frame{}, frameTorn, nil
	}
	return frame{}, frameBad, errorf("frame at offset %d runs past the log's end, and a whole frame at offset %d ends it", off, start)
}

// zeroFrom reports whether the log holds only zeros from off on, as a
// file system that extended a file but lost its data leaves it.
func (r *logReader) zeroFrom(off int64) (bool, error) {
	for off < r.size {
		n := int(min(int64(scanWindow), r.size-off))
		b, err := r.bytes(off, n)
		if err != nil {
			return false, err
		}
		if !allZero(b) {
			return false, nil
		}
		off += int64(n)
	}
	return true, nil
}

// bytes returns the n bytes at off, which end by r.size, reading a new
// window from off when the one held lacks them.
func (r *logReader) bytes(off int64, n int) ([]byte, error) {
	if off >= r.at && off+int64(n) <= r.at+int64(len(r.buf)) {
		return r.buf[off-r.at : off-r.at+int64(n)], nil
	}
	want := int(min(int64(max(n, scanWindow)), r.size-off))
	if cap(r.buf) < want {
		r.buf = make([]byte, want)
	}
	r.buf, r.at = r.buf[:want], off
	if k, err := r.fs.ReadAt(r.name, r.buf, off); err != nil && !(errors.Is(err, io.EOF) && k == want) {
		r.buf = r.buf[:0]
		return nil, ioErr("read "+r.name, err)
	}
	return r.buf[:n], nil
}
