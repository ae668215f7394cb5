package main

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/batonrt/baton/store"
)

var (
	adjectives = []string{"amber", "bold", "brisk", "calm", "clever", "cosmic", "crisp", "dapper", "eager", "fancy", "gentle", "glad", "jolly", "keen", "lively", "lucky", "mellow", "nimble", "proud", "quiet", "rapid", "sunny", "swift", "tidy", "vivid", "witty"}
	nouns      = []string{"badger", "beacon", "comet", "falcon", "fern", "harbor", "heron", "lantern", "maple", "meadow", "otter", "pebble", "quill", "raven", "river", "robin", "sparrow", "summit", "thistle", "tiger", "walrus", "willow"}
)

// newSessionID returns a readable id such as "brisk-heron-3f2a".
func newSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	n := binary.LittleEndian.Uint64(b[:])
	adj := adjectives[n%uint64(len(adjectives))]
	n /= uint64(len(adjectives))
	noun := nouns[n%uint64(len(nouns))]
	n /= uint64(len(nouns))
	return fmt.Sprintf("%s-%s-%04x", adj, noun, n&0xffff)
}

// checkNewID checks an id the user picks for a new session: letters,
// digits, '-', '_' and '.', so it prints, pastes and names a file the same
// everywhere. Empty means baton picks one.
func checkNewID(id string) error {
	if len(id) > store.MaxSessionID {
		return fmt.Errorf("session id of %d bytes; at most %d", len(id), store.MaxSessionID)
	}
	for _, r := range id {
		if !(r == '-' || r == '_' || r == '.' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')) {
			return fmt.Errorf("session id %q: use letters, digits, '-', '_' and '.' only", id)
		}
	}
	return nil
}
