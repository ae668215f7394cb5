package store

import (
	"encoding/binary"
	"hash/crc32"
)

// A session's log is a sequence of frames, one per commit:
//
//	u32 payload length | u32 crc of the length | u32 crc of the payload |
//	payload | u32 payload length
//
// little-endian, CRC-32C. The payload is a version byte, the ref kind
// moved (1 heads, 2 checkpoints, 0 none: a commit too big for one frame
// carries its first objects in frames that move nothing), the old and new
// hashes, then the
// objects: a uvarint count and per object its hash, a uvarint length and
// its bytes. The trailing length lets Open check the last frame without
// reading the log from the start.
const (
	frameHeader   = 12
	frameTrailer  = 4
	frameVersion  = 1
	maxFrame      = 1 << 30
	frameOverhead = frameHeader + frameTrailer
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// frameSplit is the payload size past which a commit's objects go into
// more frames; well under maxFrame, and a variable so tests can lower it.
var frameSplit = maxFrame / 2

var refKindCodes = map[RefKind]byte{RefHeads: 1, RefCheckpoints: 2}

func refKindOf(c byte) (RefKind, bool) {
	if c == 0 {
		return "", true
	}
	for k, v := range refKindCodes {
		if v == c {
			return k, true
		}
	}
	return "", false
}

// frame is one decoded commit; objects point into the log by offset.
type frame struct {
	kind     RefKind
	old, new Hash
	objs     []frameObject
	size     int64             // whole frame, header to trailer
	head     [frameHeader]byte // as read, to tell the frame from one written over it
}

type frameObject struct {
	hash Hash
	off  int64 // offset of the bytes in the log
	n    int
}

// encodeFrame appends one commit's frame to dst.
func encodeFrame(dst []byte, kind RefKind, old, new Hash, objs []Object) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, frameHeader)...)
	dst = append(dst, frameVersion, refKindCodes[kind])
	dst = append(dst, old[:]...)
	dst = append(dst, new[:]...)
	dst = binary.AppendUvarint(dst, uint64(len(objs)))
	for _, o := range objs {
		dst = append(dst, o.Hash[:]...)
		dst = binary.AppendUvarint(dst, uint64(len(o.Bytes)))
		dst = append(dst, o.Bytes...)
	}
	n := uint32(len(dst) - start - frameHeader)
	h := dst[start : start+frameHeader]
	binary.LittleEndian.PutUint32(h[0:], n)
	binary.LittleEndian.PutUint32(h[4:], crc32.Checksum(h[0:4], castagnoli))
	binary.LittleEndian.PutUint32(h[8:], crc32.Checksum(dst[start+frameHeader:], castagnoli))
	return binary.LittleEndian.AppendUint32(dst, n)
}

// frameState says what scanning found at an offset.
type frameState int

const (
	frameWhole      frameState = iota // a whole, valid frame
	frameTorn                         // the tail of an interrupted write: cut it
	frameBad                          // damage with data after it: refuse the log
	frameUnreadable                   // the log could not be read: the error says why
)

// readFrame decodes the frame at the start of b, which holds the log from
// offset base to its end.
func readFrame(b []byte, base int64) (frame, frameState, error) {
	if len(b) < frameOverhead {
		return frame{}, frameTorn, nil
	}
	n, ok := frameLen(b)
	if !ok {
		if allZero(b) {
			return frame{}, frameTorn, nil
		}
		return frame{}, frameBad, badHeader(base)
	}
	if n > maxFrame || int64(n)+frameOverhead > int64(len(b)) {
		return frame{}, frameTorn, nil
	}
	end := int(n) + frameOverhead
	return judgeFrame(b[:end], base, end == len(b))
}

// frameLen returns the payload length a frame's header holds, and whether
// the header's checksum holds.
func frameLen(h []byte) (uint32, bool) {
	return binary.LittleEndian.Uint32(h[0:]), binary.LittleEndian.Uint32(h[4:]) == crc32.Checksum(h[0:4], castagnoli)
}

func badHeader(base int64) error { return errorf("bad frame header at offset %d", base) }

// judgeFrame decodes b, the bytes of one frame at base whose header was
// checked; a frame failing its checksum is a torn write when it ends the
// log (last), and damage when data follows it.
func judgeFrame(b []byte, base int64, last bool) (frame, frameState, error) {
	end := len(b) - frameTrailer
	payload := b[frameHeader:end]
	if binary.LittleEndian.Uint32(b[8:]) != crc32.Checksum(payload, castagnoli) || binary.LittleEndian.Uint32(b[end:]) != uint32(len(payload)) {
		if last {
			return frame{}, frameTorn, nil
		}
		return frame{}, frameBad, errorf("frame at offset %d fails its checksum", base)
	}
	f, err := decodePayload(payload, base+frameHeader)
	if err != nil {
		return frame{}, frameBad, errorf("frame at offset %d: %w", base, err)
	}
	f.size = int64(len(b))
	copy(f.head[:], b)
	return f, frameWhole, nil
}

func decodePayload(p []byte, base int64) (frame, error) {
	var f frame
	if len(p) < 2+64 || p[0] != frameVersion {
		return f, errorf("unknown payload version")
	}
	kind, ok := refKindOf(p[1])
	if !ok {
		return f, errorf("unknown ref kind %d", p[1])
	}
	f.kind = kind
	copy(f.old[:], p[2:34])
	copy(f.new[:], p[34:66])
	off := 66
	count, k := binary.Uvarint(p[off:])
	if k <= 0 || count > uint64(len(p)) {
		return f, errorf("bad object count")
	}
	off += k
	for range count {
		if len(p)-off < 32 {
			return f, errorf("object hash cut short")
		}
		var o frameObject
		copy(o.hash[:], p[off:off+32])
		off += 32
		size, k := binary.Uvarint(p[off:])
		if k <= 0 || size > uint64(len(p)-off-k) {
			return f, errorf("bad object length")
		}
		off += k
		o.off, o.n = base+int64(off), int(size)
		off += int(size)
		f.objs = append(f.objs, o)
	}
	if off != len(p) {
		return f, errorf("%d bytes after the objects", len(p)-off)
	}
	return f, nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
