package postgres

import (
	"context"

	"github.com/batonrt/baton/store"
)

// maxObject bounds one object: PostgreSQL keeps no value, and takes no
// message, of 1 GiB or more, and the statement that carries an object
// carries its other arguments too (at most a few KiB with the longest
// session id), which the MiB kept back leaves room for.
const maxObject = 1<<30 - 1<<20

// oversized refuses, before anything is stored, a commit with an object
// this backend cannot hold: no retry would store it. The Store refuses a node
// over store.MaxNode, far smaller, before its backend sees it, so only
// a Backend used directly meets this.
func oversized(session string, objs []store.Object) error {
	for _, o := range objs {
		if len(o.Bytes) > maxObject {
			return errorf("store: postgres: commit %q: object %s: %w: %d bytes, PostgreSQL stores at most %d in one object", session, o.Hash, store.ErrInvalid, len(o.Bytes), maxObject)
		}
	}
	return nil
}

// maxStatementObjects bounds the object bytes one statement carries: pgx
// refuses a message over 1 GiB, and a statement that size would take as
// much of the server's memory.
const maxStatementObjects = 64 << 20

// storeAhead stores, before a commit's statement, the objects that would
// take that statement past maxStatementObjects, a batch per statement,
// and returns those left for it: at least the last, which may alone be
// over the bound and cannot be split, so it goes with the commit. Objects
// nothing names yet are harmless: if the commit then fails, they are the
// leftovers of a failed step.
func (b *Backend) storeAhead(ctx context.Context, objs []store.Object) ([]store.Object, error) {
	size := 0
	for _, o := range objs {
		size += len(o.Bytes)
	}
	for size > maxStatementObjects && len(objs) > 1 {
		n, batch := 0, 0
		for n < len(objs)-1 && (n == 0 || batch+len(objs[n].Bytes) <= maxStatementObjects) {
			batch += len(objs[n].Bytes)
			n++
		}
		hashes, bytes := columns(objs[:n])
		if _, err := b.pool.Exec(ctx, `INSERT INTO baton_objects (hash, bytes) SELECT h, o FROM unnest($1::bytea[], $2::bytea[]) AS t(h, o)
			ON CONFLICT (hash) DO NOTHING`, hashes, bytes); err != nil {
			return nil, ioErr("store objects", err)
		}
		objs, size = objs[n:], size-batch
	}
	return objs, nil
}

// columns splits objects into the hash and bytes arrays a statement
// takes.
func columns(objs []store.Object) (hashes, bytes [][]byte) {
	hashes = make([][]byte, len(objs))
	bytes = make([][]byte, len(objs))
	for i, o := range objs {
		hashes[i], bytes[i] = o.Hash[:], o.Bytes
	}
	return hashes, bytes
}
