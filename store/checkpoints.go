package store

import (
	"context"
	"errors"

	"github.com/batonrt/baton/contract"
)

func (d *db) SaveCheckpoint(ctx context.Context, sessionID string, at Hash, snap contract.RunSnapshot) error {
	if err := checkSession(sessionID); err != nil {
		return err
	}
	if snap.SessionID != sessionID {
		// Resume takes only the session's own snapshot.
		return errorf("store: checkpoint %q: %w: the snapshot is of session %q", sessionID, ErrInvalid, snap.SessionID)
	}
	head, err := d.Head(ctx, sessionID)
	if err != nil {
		return errorf("store: checkpoint %q: %w", sessionID, err)
	}
	var atNode *Node
	for n, err := range d.Walk(ctx, head) {
		if err != nil {
			return errorf("store: checkpoint %q: %w", sessionID, err)
		}
		if n.Hash == at {
			atNode = &n
			break
		}
	}
	if atNode == nil {
		return errorf("store: checkpoint %q: %w: node %s is not in the session", sessionID, ErrInvalid, at)
	}
	if snap.Steps != atNode.Record.Step {
		return errorf("store: checkpoint %q: %w: snapshot has %d steps, node is step %d", sessionID, ErrInvalid, snap.Steps, atNode.Record.Step)
	}
	sb, err := contract.EncodeSnapshot(snap)
	if err != nil {
		return errorf("store: checkpoint %q: %w: %w", sessionID, ErrInvalid, err)
	}
	b := encodeCheckpoint(at, sb)
	h := HashOf(b)
	old, err := d.b.Ref(ctx, RefCheckpoints, sessionID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return errorf("store: checkpoint %q: %w", sessionID, err)
	}
	if err := d.b.Commit(ctx, RefCheckpoints, sessionID, old, h, []Object{{Hash: h, Bytes: b}}); err != nil {
		return errorf("store: checkpoint %q: %w", sessionID, err)
	}
	return nil
}

func (d *db) Checkpoint(ctx context.Context, sessionID string) (Checkpoint, error) {
	if err := checkSession(sessionID); err != nil {
		return Checkpoint{}, err
	}
	d.nameAll()
	h, err := d.b.Ref(ctx, RefCheckpoints, sessionID)
	if err != nil {
		return Checkpoint{}, err
	}
	return d.readCheckpoint(ctx, sessionID, h)
}

func (d *db) readCheckpoint(ctx context.Context, sessionID string, h Hash) (Checkpoint, error) {
	b, err := d.b.Get(ctx, h)
	if errors.Is(err, ErrNotFound) {
		return Checkpoint{}, errorf("store: checkpoint of %q: %w: %s", sessionID, ErrBrokenRef, h)
	}
	if err != nil {
		return Checkpoint{}, err
	}
	return decodeCheckpoint(h, b)
}
