package store

import (
	"encoding/hex"
	"sync"

	"github.com/zeebo/blake3"
)

// Hash names an object: the blake3-256 hash of its bytes. The zero Hash
// names nothing; a root node's parent is zero.
type Hash [32]byte

// HashOf returns the hash of b.
func HashOf(b []byte) (h Hash) {
	// A pooled hasher keeps its 8 KiB buffer on the heap: blake3.Sum256
	// keeps it on the stack, and every goroutine that appends a record
	// (the one waiting in Submit among them) would grow its stack to
	// 16 KiB or more for it, for as long as it lives.
	d := hashers.Get().(*blake3.Hasher)
	d.Reset()
	_, _ = d.Write(b)
	d.Sum(h[:0])
	hashers.Put(d)
	return h
}

var hashers = sync.Pool{New: func() any { return blake3.New() }}

// String returns the hash in lowercase hex.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is the zero hash.
func (h Hash) IsZero() bool { return h == Hash{} }

// ParseHash parses 64 hex digits.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 2*len(h) {
		return h, errorf("store: parse hash %q: %w: %d bytes, want %d hex digits", clip(s), ErrInvalid, len(s), 2*len(h))
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return Hash{}, errorf("store: parse hash %q: %w: %v", clip(s), ErrInvalid, err)
	}
	return h, nil
}

// MarshalText encodes the hash as hex.
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText decodes hex.
func (h *Hash) UnmarshalText(b []byte) error {
	if len(b) != 2*len(h) {
		// Not copied into a string: the value may be huge.
		*h = Hash{}
		return errorf("store: parse hash %q: %w: %d bytes, want %d hex digits", clip(string(b[:min(len(b), 81)])), ErrInvalid, len(b), 2*len(h))
	}
	v, err := ParseHash(string(b))
	*h = v
	return err
}

// clip shortens what an error quotes from its input, so that a huge bad
// value gives a short message.
func clip(s string) string {
	const keep = 80
	if len(s) <= keep {
		return s
	}
	return s[:keep] + "..."
}
