package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/batonrt/baton/contract"
)

// Checkpoint is a snapshot saved at a node, so that resume folds only the
// records after it.
type Checkpoint struct {
	// At is the node whose record the snapshot already includes.
	At       Hash
	Snapshot contract.RunSnapshot
}

// checkpointVersion is the version a checkpoint is written at, and the
// newest this release reads.
const checkpointVersion = 1

func encodeCheckpoint(at Hash, snap []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"v":` + strconv.Itoa(checkpointVersion) + `,"kind":"checkpoint","node":"` + at.String() + `","snapshot":`)
	b.Write(snap)
	b.WriteByte('}')
	return b.Bytes()
}

func decodeCheckpoint(h Hash, b []byte) (Checkpoint, error) {
	if err := checkObject(h, b); err != nil {
		return Checkpoint{}, err
	}
	var w struct {
		V        int             `json:"v"`
		Kind     string          `json:"kind"`
		Node     Hash            `json:"node"`
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if err := json.Unmarshal(b, &w); err != nil || w.Kind != "checkpoint" {
		return Checkpoint{}, errorf("store: checkpoint %s: %w: not a checkpoint", h, ErrCorrupt)
	}
	if w.V > checkpointVersion {
		return Checkpoint{}, errorf("store: checkpoint %s: %w: version %d", h, ErrSchemaVersion, w.V)
	}
	snap, err := contract.DecodeSnapshot(w.Snapshot)
	switch {
	case errors.Is(err, contract.ErrSchemaVersion):
		return Checkpoint{}, errorf("store: checkpoint %s: %w: %w", h, ErrSchemaVersion, err)
	case err != nil:
		return Checkpoint{}, errorf("store: checkpoint %s: %w: %v", h, ErrCorrupt, err)
	}
	return Checkpoint{At: w.Node, Snapshot: snap}, nil
}
