package store

import (
	"bytes"
	"encoding/hex"
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

// EncodeNode returns the canonical bytes of a node (Hash is ignored).
// The record is written in place after the node's own fields, in the one
// buffer the node's bytes are returned in.
func EncodeNode(n Node) ([]byte, error) {
	return appendNode(make([]byte, 0, 512+len(n.Links)*(2*len(Hash{})+3)), &n)
}

// appendNode appends the canonical bytes of n to b.
func appendNode(b []byte, n *Node) ([]byte, error) {
	b = appendNodeFields(b, n.Parent, n.Links)
	b, err := contract.AppendRecord(b, n.Record)
	if err != nil {
		return nil, errorf("store: encode node: %w: %w", ErrInvalid, err)
	}
	return append(b, '}'), nil
}

// appendNodeAround appends the canonical bytes of the node after parent
// that holds the record whose canonical bytes are record.
func appendNodeAround(b []byte, parent Hash, record []byte) []byte {
	b = appendNodeFields(b, parent, nil)
	b = append(b, record...)
	return append(b, '}')
}

// appendNodeFields appends a node's fields up to its record's value.
func appendNodeFields(b []byte, parent Hash, links []Hash) []byte {
	b = append(b, `{"v":1,"kind":"node",`...)
	if !parent.IsZero() {
		b = append(b, `"parent":"`...)
		b = hex.AppendEncode(b, parent[:])
		b = append(b, `",`...)
	}
	if len(links) > 0 {
		b = append(b, `"links":[`...)
		for i, l := range links {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = hex.AppendEncode(b, l[:])
			b = append(b, '"')
		}
		b = append(b, `],`...)
	}
	return append(b, `"record":`...)
}

// DecodeNode checks b against its name h and parses it. Damage is
// ErrCorrupt; a node from a newer release is ErrSchemaVersion.
func DecodeNode(h Hash, b []byte) (Node, error) {
	if err := checkObject(h, b); err != nil {
		return Node{}, err
	}
	if n, ok := parsed.get(h); ok {
		return n, nil
	}
	n, err := parseNode(h, b)
	if err == nil {
		parsed.put(n, len(b))
	}
	return n, err
}

func checkObject(h Hash, b []byte) error {
	if len(b) == 0 {
		return errorf("store: object %s: %w: empty", h, ErrCorrupt)
	}
	if got := HashOf(b); got != h {
		return errorf("store: object %s: %w: content hashes to %s (truncated, altered or misnamed)", h, ErrCorrupt, got)
	}
	return nil
}

// parseNode reads the canonical form directly; anything else goes to
// parseOther, which tells a newer version from damage.
func parseNode(h Hash, b []byte) (Node, error) {
	rest, ok := bytes.CutPrefix(b, []byte(`{"v":1,"kind":"node",`))
	if !ok {
		return parseOther(h, b)
	}
	n := Node{Hash: h}
	if r, ok := bytes.CutPrefix(rest, []byte(`"parent":"`)); ok {
		if len(r) < 66 || r[64] != '"' || r[65] != ',' {
			return Node{}, corrupt(h, "bad parent")
		}
		p, err := parseLowerHex(r[:64])
		if err != nil || p.IsZero() {
			return Node{}, corrupt(h, "bad parent")
		}
		n.Parent, rest = p, r[66:]
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`"links":[`)); ok {
		for {
			if len(r) < 67 || r[0] != '"' || r[65] != '"' {
				return Node{}, corrupt(h, "bad links")
			}
			l, err := parseLowerHex(r[1:65])
			if err != nil {
				return Node{}, corrupt(h, "bad links")
			}
			n.Links = append(n.Links, l)
			sep := r[66]
			r = r[67:]
			if sep == ']' {
				break
			}
			if sep != ',' {
				return Node{}, corrupt(h, "bad links")
			}
		}
		if len(r) == 0 || r[0] != ',' {
			return Node{}, corrupt(h, "bad links")
		}
		rest = r[1:]
	}
	raw, ok := bytes.CutPrefix(rest, []byte(`"record":`))
	if !ok || len(raw) < 2 || raw[len(raw)-1] != '}' {
		return Node{}, corrupt(h, "no record")
	}
	rec, err := contract.DecodeRecord(raw[:len(raw)-1])
	switch {
	case errors.Is(err, contract.ErrSchemaVersion):
		return Node{}, errorf("store: node %s: %w: %w", h, ErrSchemaVersion, err)
	case err != nil:
		return Node{}, corrupt(h, fmt.Sprintf("record: %v", err))
	}
	n.Record = rec
	return n, nil
}

// checkCanonical refuses a node whose record is not in canonical form;
// Import applies it to nodes from outside.
func checkCanonical(n Node, b []byte) error {
	again, err := EncodeNode(n)
	if err != nil || !bytes.Equal(again, b) {
		return corrupt(n.Hash, "not in canonical form")
	}
	return nil
}

func corrupt(h Hash, why string) error {
	return errorf("store: node %s: %w: %s", h, ErrCorrupt, why)
}

func parseLowerHex(b []byte) (Hash, error) {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return Hash{}, ErrCorrupt
		}
	}
	return ParseHash(string(b))
}

func parseOther(h Hash, b []byte) (Node, error) {
	var probe struct {
		V    int    `json:"v"`
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return Node{}, corrupt(h, err.Error())
	}
	if probe.V > nodeVersion {
		return Node{}, errorf("store: node %s: %w: version %d, this release reads up to %d", h, ErrSchemaVersion, probe.V, nodeVersion)
	}
	return Node{}, corrupt(h, fmt.Sprintf("not a canonical node (v %d, kind %q)", probe.V, probe.Kind))
}
