package postgres

import (
	"context"
	"crypto/sha256"
	"errors"

	"github.com/batonrt/baton/store"
)

// A head commit names its parent, the node the head held, and the store
// over this backend trusts that node without reading it again: it wrote
// it, or read and verified it, before. A row changed since (edited by
// hand, restored from a bad copy) would then have records chained onto
// bytes no read accepts. So the commit's statement moves the head only
// while the parent's stored bytes still have the SHA-256 this backend
// knows them by, a digest the server computes where blake3 is not
// available: the sum of the head an owner last committed, or of the
// bytes read and verified for this commit.

// parentSum returns the SHA-256 of the stored bytes of old, the node a
// head commit builds on, or nil when the commit names no parent or one
// never stored; it fails with ErrCorrupt when those bytes no longer hash
// to old.
func (b *Backend) parentSum(ctx context.Context, kind store.RefKind, session string, old store.Hash) ([]byte, error) {
	if kind != store.RefHeads || old.IsZero() {
		return nil, nil
	}
	if sum, ok := b.knownSum(session, old); ok {
		return sum[:], nil
	}
	bytes, err := b.Get(ctx, old)
	if errors.Is(err, store.ErrNotFound) {
		// Nothing to compare: a ref holds no hash never stored, so the
		// compare-and-set refuses the commit.
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if store.HashOf(bytes) != old {
		return nil, damagedHead(session, old)
	}
	sum := sha256.Sum256(bytes)
	return sum[:], nil
}

// knownSum returns the digest an owner remembered for its head old.
func (b *Backend) knownSum(session string, old store.Hash) ([sha256.Size]byte, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.held[session]
	if !ok || o.sumOf != old || old.IsZero() {
		return [sha256.Size]byte{}, false
	}
	return o.sum, true
}

// rememberSum records the digest of the head an owner just committed
// under epoch, found among the objects it committed.
func (b *Backend) rememberSum(session string, epoch int64, head store.Hash, objs []store.Object) {
	for _, obj := range objs {
		if obj.Hash != head {
			continue
		}
		sum := sha256.Sum256(obj.Bytes)
		b.mu.Lock()
		defer b.mu.Unlock()
		if o, ok := b.held[session]; ok && o.epoch == epoch {
			o.sumOf, o.sum = head, sum
		}
		return
	}
}

func damagedHead(session string, head store.Hash) error {
	return errorf("store: head %s of %q: %w: its stored bytes changed after they were written", head, session, store.ErrCorrupt)
}

func damagedCommit(kind store.RefKind, session string, old store.Hash) error {
	return errorf("store: commit %q onto %s ref %s: %w: the stored bytes of that node, or of a node this commit makes, changed after they were written", session, kind, old, store.ErrCorrupt)
}
