package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// nodeVersion is the node format this release writes and reads.
const nodeVersion = 1

// Node is one committed record in a session's chain. It holds the
// record and the hashes it points at, never the history before it, so a
// node's size does not grow with the session.
type Node struct {
	// Hash names the node; it is not part of the encoding.
	Hash Hash
	// Parent is the previous node of the chain; zero for the first.
	Parent Hash
	// Links are heads of delegated runs' chains joined at this node.
	Links  []Hash
	Record contract.Record
}

type nodeWire struct {
	V      int             `json:"v"`
	Kind   string          `json:"kind"`
	Parent *Hash           `json:"parent,omitempty"`
	Links  []Hash          `json:"links,omitempty"`
	Record json.RawMessage `json:"record"`
}

// EncodeNode returns the canonical bytes of a node (Hash is ignored).
func EncodeNode(n Node) ([]byte, error) {
	rec, err := contract.EncodeRecord(n.Record)
	if err != nil {
		return nil, fmt.Errorf("store: encode node: %w: %w", ErrInvalid, err)
	}
	return encodeNodeRaw(n.Parent, n.Links, rec), nil
}

func encodeNodeRaw(parent Hash, links []Hash, rec []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(rec) + 160)
	b.WriteString(`{"v":1,"kind":"node",`)
	if !parent.IsZero() {
		b.WriteString(`"parent":"` + parent.String() + `",`)
	}
	if len(links) > 0 {
		b.WriteString(`"links":[`)
		for i, l := range links {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + l.String() + `"`)
		}
		b.WriteString(`],`)
	}
	b.WriteString(`"record":`)
	b.Write(rec)
	b.WriteByte('}')
	return b.Bytes()
}

// DecodeNode checks b against its name h and parses it. Damage is
// ErrCorrupt; a node from a newer release is ErrSchemaVersion.
func DecodeNode(h Hash, b []byte) (Node, error) {
	if err := checkObject(h, b); err != nil {
		return Node{}, err
	}
	return parseNode(h, b)
}

func checkObject(h Hash, b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("store: object %s: %w: empty", h, ErrCorrupt)
	}
	if got := HashOf(b); got != h {
		return fmt.Errorf("store: object %s: %w: content hashes to %s (truncated, altered or misnamed)", h, ErrCorrupt, got)
	}
	return nil
}

func parseNode(h Hash, b []byte) (Node, error) {
	bad := func(format string, args ...any) (Node, error) {
		return Node{}, fmt.Errorf("store: node %s: %w: %s", h, ErrCorrupt, fmt.Sprintf(format, args...))
	}
	var probe struct {
		V    int    `json:"v"`
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return bad("%v", err)
	}
	if probe.V > nodeVersion {
		return Node{}, fmt.Errorf("store: node %s: %w: version %d, this release reads up to %d", h, ErrSchemaVersion, probe.V, nodeVersion)
	}
	if probe.V != nodeVersion || probe.Kind != "node" {
		return bad("not a node (v %d, kind %q)", probe.V, probe.Kind)
	}
	var w nodeWire
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return bad("%v", err)
	}
	if dec.More() {
		return bad("trailing data")
	}
	n := Node{Hash: h, Links: w.Links}
	if w.Parent != nil {
		n.Parent = *w.Parent
	}
	rec, err := contract.DecodeRecord(w.Record)
	switch {
	case errors.Is(err, contract.ErrSchemaVersion):
		return Node{}, fmt.Errorf("store: node %s: %w: %w", h, ErrSchemaVersion, err)
	case err != nil:
		return bad("record: %v", err)
	}
	n.Record = rec
	if w.Parent != nil && n.Parent.IsZero() {
		return bad("zero parent written out")
	}
	if !bytes.Equal(encodeNodeRaw(n.Parent, n.Links, w.Record), b) {
		return bad("not in canonical form")
	}
	if again, err := contract.EncodeRecord(rec); err != nil || !bytes.Equal(again, w.Record) {
		return bad("record not in canonical form")
	}
	return n, nil
}
