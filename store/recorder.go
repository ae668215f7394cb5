package store

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/batonrt/baton/contract"
)

// Recorder is a Store that appends a record without returning its node's
// hash, so it may name the node later: the store of NewMemory hashes the
// record, and the nodes after it, only when the store is next read, since
// nothing but the store itself can read its memory meanwhile, and keeps
// a record of a reply or a tool's result as it is until then, to be
// encoded then too. A session that is never read is never hashed, and
// of its records only those other than replies and results are encoded.
// The conductor persists through Record when its store has it.
type Recorder interface {
	// Record appends rec after the session's newest record, as Append
	// does, and refuses as it does a record whose node would be over
	// MaxNode, when called, not when the store is next read. rec may be
	// kept until it is read: what its signal refers to (a reply's
	// blocks, say) must not change after.
	Record(ctx context.Context, sessionID string, rec contract.Record) error
}

// unnamed tracks the sessions with unnamed nodes, for a store that names
// late (NewMemory's).
type unnamed struct {
	count   atomic.Int64 // sessions with unnamed nodes
	waiting []waitingSession
}

// waitingSession is a session listed for nameAll.
type waitingSession struct {
	id string
	s  *sessionState
}

func (d *db) Record(ctx context.Context, sessionID string, rec contract.Record) error {
	if !d.late {
		_, err := d.append(ctx, sessionID, nil, []contract.Record{rec})
		return err
	}
	if err := checkSession(sessionID); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return appendFailed(sessionID, err)
	}
	s := d.session(sessionID)
	s.mu.Lock()
	defer s.mu.Unlock()
	var step uint64
	if n := len(s.unnamed); n > 0 {
		step = s.unnamed[n-1].Step
	} else {
		var err error
		if _, step, err = d.tip(ctx, sessionID, s); err != nil {
			return err
		}
	}
	if rec.Step != step+1 {
		return outOfSequence(sessionID, rec.Step, step)
	}
	if !contract.RecordAlwaysEncodes(rec.Signal) || !fitsUnencoded(rec) {
		// Encoded now, so that an error, or a node over MaxNode, is this
		// call's: found only when the store is read, it would leave the
		// session's reads failing.
		body, err := encodeRecord(rec)
		if err != nil {
			return appendFailed(sessionID, errorf("%w: %w", ErrInvalid, err))
		}
		if n := nodeAroundLen(step > 0, len(body)); n > MaxNode {
			return appendFailed(sessionID, nodeTooLarge(n))
		}
		s.encoded = append(s.encoded, body)
		rec = contract.Record{Step: rec.Step}
	}
	if len(s.unnamed) == 0 {
		d.waitsForName(sessionID, s)
	}
	s.unnamed = append(s.unnamed, rec)
	return nil
}

// encodeRecord returns rec's canonical bytes, encoded in a pooled
// buffer and copied to their exact size.
func encodeRecord(rec contract.Record) ([]byte, error) {
	buf := nodeBuffers.Get().(*nodeBuffer)
	b, err := contract.AppendRecord(buf.bytes[:0], rec)
	if err != nil {
		nodeBuffers.Put(buf)
		return nil, err
	}
	body := slices.Clone(b)
	if cap(b) <= maxPooledNode {
		buf.bytes = b
		nodeBuffers.Put(buf)
	}
	return body, nil
}

// waitsForName counts s among the sessions to name before the next read
// and lists it. Called with s.mu held.
func (d *db) waitsForName(sessionID string, s *sessionState) {
	d.names.count.Add(1)
	d.list(sessionID, s)
}

// list puts s on the list nameAll names from. Called with s.mu held.
func (d *db) list(sessionID string, s *sessionState) {
	d.mu.Lock()
	d.names.waiting = append(d.names.waiting, waitingSession{sessionID, s})
	d.mu.Unlock()
}

// nameAll hashes and commits every node Record appended, so the store
// reads as if each had been appended by Append. Every read calls it
// first; it costs an atomic load when nothing waits. Naming is done by
// one caller at a time, and a session leaves the count only once its
// nodes are committed, so a read that finds the count at zero, or waits
// for the naming under way, sees every record Record acknowledged.
// Naming is the store's own work, done for whichever read came first,
// so that read's context does not cut it short (the memory backend it
// runs on does not block), and a session that cannot be named (its head
// node damaged) fails the reads of that session only (namingFailed),
// staying listed for the next read to try again, after a repair, say.
func (d *db) nameAll() {
	if d.names.count.Load() == 0 {
		return
	}
	d.naming.Lock()
	defer d.naming.Unlock()
	d.mu.Lock()
	waiting := d.names.waiting
	d.names.waiting = nil
	d.mu.Unlock()
	for _, w := range waiting {
		w.s.mu.Lock()
		if w.s.nameErr = d.name(w.id, w.s); w.s.nameErr != nil {
			// Still counted: listed again, for the next read to name.
			d.list(w.id, w.s)
		}
		w.s.mu.Unlock()
	}
}

// namingFailed is the error naming the session's records last met, if
// they are still unnamed.
func (d *db) namingFailed(sessionID string) error {
	d.mu.Lock()
	s := d.sessions[sessionID]
	d.mu.Unlock()
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.unnamed) == 0 {
		return nil
	}
	return s.nameErr
}

// name commits s's unnamed nodes after its head, and counts s out of the
// sessions waiting; on failure they stay unnamed and s counted. Called
// with s.mu held. The store that names late owns its backend, so the
// commit cannot meet another writer's; its nodes are those Append would
// have made.
func (d *db) name(sessionID string, s *sessionState) error {
	if len(s.unnamed) == 0 {
		return nil
	}
	ctx := context.Background()
	head, step, err := d.tip(ctx, sessionID, s)
	if err != nil {
		return err
	}
	old := head
	// The nodes are written one after another into one buffer, which the
	// backend copies each of.
	objs := make([]Object, len(s.unnamed))
	var b []byte
	encoded := s.encoded
	for i, rec := range s.unnamed {
		start := len(b)
		if rec.Signal == nil {
			b = appendNodeAround(b, head, encoded[0])
			encoded = encoded[1:]
		} else if b, err = appendNode(b, &Node{Parent: head, Record: rec}); err != nil {
			return appendFailed(sessionID, err)
		}
		head, step = HashOf(b[start:]), rec.Step
		objs[i] = Object{Hash: head, Bytes: b[start:len(b):len(b)]}
	}
	if err := d.b.Commit(ctx, RefHeads, sessionID, old, head, objs); err != nil {
		s.head, s.step = Hash{}, 0
		return appendFailed(sessionID, err)
	}
	s.head, s.step = head, step
	clear(s.unnamed)
	clear(s.encoded)
	s.unnamed, s.encoded, s.nameErr = nil, nil, nil
	d.names.count.Add(-1)
	return nil
}
