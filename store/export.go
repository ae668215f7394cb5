package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/zeebo/blake3"
)

// exportVersion is the JSONL format version Export writes.
const exportVersion = 2

// endVersion is the first export version that ends with an end line.
// Before it an export cut short at a line boundary read as a whole one
// holding fewer sessions; from it, an export without its end line is
// refused.
const endVersion = 2

// exportLine is one line of an export: a header, a node (its canonical
// bytes inline, so the hash can be checked), a session's head, or the
// end line, which counts the node and head lines before it and holds the
// blake3 of every line before it but blank ones, each with its newline.
type exportLine struct {
	Kind     string          `json:"kind"`
	V        int             `json:"v,omitempty"`
	Hash     *Hash           `json:"hash,omitempty"`
	Node     json.RawMessage `json:"node,omitempty"`
	Session  string          `json:"session,omitempty"`
	Nodes    *int            `json:"nodes,omitempty"`
	Sessions *int            `json:"sessions,omitempty"`
	Blake3   *Hash           `json:"blake3,omitempty"`
}

func (d *db) Export(ctx context.Context, w io.Writer, sessionIDs ...string) error {
	var err error
	if len(sessionIDs) == 0 {
		sessionIDs, err = d.Sessions(ctx)
	} else {
		sessionIDs, err = d.namedWithDelegated(ctx, sessionIDs)
	}
	if err != nil {
		return errorf("store: export: %w", err)
	}
	bw := bufio.NewWriter(w)
	sum := blake3.New()
	enc := json.NewEncoder(io.MultiWriter(bw, sum))
	enc.SetEscapeHTML(false)
	if err := enc.Encode(exportLine{Kind: "baton-store", V: exportVersion}); err != nil {
		return errorf("store: export: %w", err)
	}
	done := map[Hash]bool{}
	for _, id := range sessionIDs {
		head, err := d.Head(ctx, id)
		if err != nil {
			return errorf("store: export: %w", err)
		}
		if err := d.exportChain(ctx, enc, head, done); err != nil {
			return errorf("store: export %q: %w", id, err)
		}
		if err := enc.Encode(exportLine{Kind: "head", Session: id, Hash: &head}); err != nil {
			return errorf("store: export: %w", err)
		}
	}
	nodes, sessions := len(done), len(sessionIDs)
	var digest Hash
	sum.Sum(digest[:0])
	end := json.NewEncoder(bw)
	if err := end.Encode(exportLine{Kind: "end", Nodes: &nodes, Sessions: &sessions, Blake3: &digest}); err != nil {
		return errorf("store: export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return errorf("store: export: %w", err)
	}
	return nil
}

// exportChain writes the chain ending at head, oldest first, each linked
// chain before the node linking it, skipping nodes already written.
func (d *db) exportChain(ctx context.Context, enc *json.Encoder, head Hash, done map[Hash]bool) error {
	var path []Hash
	for h := head; !h.IsZero() && !done[h]; {
		n, err := d.Node(ctx, h)
		if err != nil {
			return err
		}
		path = append(path, h)
		h = n.Parent
	}
	for _, h := range slices.Backward(path) {
		b, err := d.b.Get(ctx, h)
		if err != nil {
			return err
		}
		if len(b) > MaxNode {
			// Stored before stores kept MaxNode: written, it would make
			// an export that no import reads.
			return errorf("node %s: %w", h, nodeTooLarge(len(b)))
		}
		n, err := DecodeNode(h, b)
		if err != nil {
			return err
		}
		for _, l := range n.Links {
			if err := d.exportChain(ctx, enc, l, done); err != nil {
				return err
			}
		}
		if err := enc.Encode(exportLine{Kind: "node", Hash: &h, Node: b}); err != nil {
			return err
		}
		done[h] = true
	}
	return nil
}

func (d *db) Import(ctx context.Context, r io.Reader) ([]string, error) {
	d.nameAll()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxImportLine)
	im := importer{d: d, nodes: map[Hash]uint64{}, named: map[string]bool{}, sum: blake3.New()}
	line := 1
	for ; sc.Scan(); line++ {
		if err := ctx.Err(); err != nil {
			return nil, errorf("store: import: %w", err)
		}
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := im.line(ctx, line, sc.Bytes()); err != nil {
			return nil, errorf("store: import line %d: %w", line, lineError(err))
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, errorf("store: import: %w: a line is longer than %d bytes", ErrCorrupt, MaxImportLine)
	} else if err != nil {
		return nil, errorf("store: import: %w: %w", ErrCorrupt, err)
	}
	if !im.header {
		return nil, errorf("store: import: %w: no header", ErrCorrupt)
	}
	if im.version >= endVersion && !im.ended {
		return nil, errorf("store: import: %w: export cut short: it ends after line %d without the end line a version %d export ends with", ErrCorrupt, line-1, im.version)
	}
	return im.finish(ctx)
}

type importer struct {
	d       *db
	header  bool
	version int
	nodes   map[Hash]uint64 // nodes of this import -> step
	objs    []Object
	heads   []exportLine
	named   map[string]bool // sessions of heads

	// From endVersion on: the node lines read, the blake3 of the lines
	// before the end line, and whether it was read.
	nodeLines int
	sum       *blake3.Hasher
	ended     bool
}

func (im *importer) line(ctx context.Context, n int, b []byte) error {
	if im.ended {
		return errorf("%w: a line after the end line", ErrCorrupt)
	}
	var l exportLine
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return errorf("%w: %v", ErrCorrupt, err)
	}
	if l.Kind == "end" && im.version >= endVersion {
		return im.end(l)
	}
	if l.Kind != "end" && (l.Nodes != nil || l.Sessions != nil || l.Blake3 != nil) {
		return errorf("%w: a %q line with an end line's fields", ErrCorrupt, clip(l.Kind))
	}
	_, _ = im.sum.Write(b)
	_, _ = im.sum.Write([]byte{'\n'})
	if !im.header {
		if l.Kind != "baton-store" {
			return errorf("%w: want a baton-store header, got kind %q", ErrCorrupt, clip(l.Kind))
		}
		if l.V > exportVersion {
			return errorf("%w: export version %d, this release reads up to %d", ErrSchemaVersion, l.V, exportVersion)
		}
		im.header = true
		im.version = l.V
		return nil
	}
	switch {
	case l.Kind == "node" && l.Hash != nil:
		im.nodeLines++
		return im.node(ctx, *l.Hash, l.Node)
	case l.Kind == "head" && l.Hash != nil:
		if err := checkSession(l.Session); err != nil {
			return err
		}
		if _, err := im.step(ctx, *l.Hash); err != nil {
			return errorf("head of %q: %w", l.Session, err)
		}
		if im.named[l.Session] {
			// Export names each session once; a second head would be
			// refused only once the first was stored.
			return errorf("%w: session %q has a second head line", ErrCorrupt, l.Session)
		}
		im.named[l.Session] = true
		im.heads = append(im.heads, l)
		return nil
	}
	return errorf("%w: unknown line kind %q", ErrCorrupt, clip(l.Kind))
}

// end checks the end line against the lines before it: a count that
// differs means lines were lost or added, a digest that differs that
// some were changed.
func (im *importer) end(l exportLine) error {
	if l.Nodes == nil || l.Sessions == nil || l.Blake3 == nil || l.Hash != nil || l.Node != nil || l.Session != "" || l.V != 0 {
		return errorf("%w: an end line wants nodes, sessions and blake3, and nothing else", ErrCorrupt)
	}
	if *l.Nodes != im.nodeLines || *l.Sessions != len(im.heads) {
		return errorf("%w: the end line counts %d nodes and %d sessions, the export holds %d and %d", ErrCorrupt, *l.Nodes, *l.Sessions, im.nodeLines, len(im.heads))
	}
	var sum Hash
	im.sum.Sum(sum[:0])
	if sum != *l.Blake3 {
		return errorf("%w: the end line's blake3 %s differs from that of the lines before it, %s", ErrCorrupt, *l.Blake3, sum)
	}
	im.ended = true
	return nil
}

// step returns a node's step, from this import or from the store; a node
// in neither is ErrMissingParent.
func (im *importer) step(ctx context.Context, h Hash) (uint64, error) {
	if s, ok := im.nodes[h]; ok {
		return s, nil
	}
	n, err := im.d.Node(ctx, h)
	if errors.Is(err, ErrNotFound) {
		return 0, errorf("%s: %w", h, ErrMissingParent)
	}
	return n.Record.Step, err
}

func (im *importer) node(ctx context.Context, h Hash, raw []byte) error {
	if len(raw) > MaxNode {
		return errorf("node %s: %w", h, nodeTooLarge(len(raw)))
	}
	n, err := DecodeNode(h, raw)
	if err != nil {
		return err
	}
	if err := checkCanonical(n, raw); err != nil {
		return err
	}
	var parentStep uint64
	if !n.Parent.IsZero() {
		if parentStep, err = im.step(ctx, n.Parent); err != nil {
			return errorf("parent of %s: %w", h, err)
		}
	}
	if n.Record.Step != parentStep+1 {
		return errorf("node %s: %w: step %d follows step %d", h, ErrCorrupt, n.Record.Step, parentStep)
	}
	for _, l := range n.Links {
		if _, err := im.step(ctx, l); err != nil {
			return errorf("link of %s: %w", h, err)
		}
	}
	im.nodes[h] = n.Record.Step
	im.objs = append(im.objs, Object{Hash: h, Bytes: slices.Clone(raw)})
	return nil
}

// repairStored compares the objects of the import the store already has
// with their verified bytes. A damaged one is repaired from the import
// when the backend is a Repairer, and read back to be sure; otherwise the
// import fails rather than report success over it.
func (im *importer) repairStored(ctx context.Context) error {
	var damaged []Object
	for _, o := range im.objs {
		b, err := im.d.b.Get(ctx, o.Hash)
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil && !errors.Is(err, ErrCorrupt):
			return errorf("store: import: stored node %s: %w", o.Hash, err)
		case err != nil || !bytes.Equal(b, o.Bytes):
			damaged = append(damaged, o)
		}
	}
	if len(damaged) == 0 {
		return nil
	}
	r, ok := im.d.b.(Repairer)
	if !ok {
		return errorf("store: import: stored node %s is %w: its bytes differ from the verified import, and this store cannot replace them; the store needs repair", damaged[0].Hash, ErrCorrupt)
	}
	if err := r.Repair(ctx, damaged); err != nil {
		return errorf("store: import: repair %d damaged nodes: %w", len(damaged), err)
	}
	for _, o := range damaged {
		if b, err := im.d.b.Get(ctx, o.Hash); err != nil || !bytes.Equal(b, o.Bytes) {
			return errorf("store: import: stored node %s is %w and stayed so after repair: %v", o.Hash, ErrCorrupt, err)
		}
		im.d.log.Warn("store: import repaired a damaged node", "node", o.Hash.String())
	}
	return nil
}

// clippedError is an error with other text, keeping what it wraps.
type clippedError struct {
	msg string
	err error
}

func (e clippedError) Error() string { return e.msg }
func (e clippedError) Unwrap() error { return e.err }

// lineError bounds the text of an error about one import line, which
// may quote a value of any size, said without the "store: " it begins
// with as errorf says it.
func lineError(err error) error {
	const keep = 1 << 10
	msg := strings.TrimPrefix(err.Error(), prefix)
	if len(msg) > keep {
		msg = msg[:keep] + fmt.Sprintf("... (%d bytes)", len(msg))
	}
	return clippedError{msg: msg, err: err}
}

// finish makes every node durable, then moves the heads: a failed import
// leaves no session pointing at missing nodes.
func (im *importer) finish(ctx context.Context) ([]string, error) {
	// Held like Append and Fork hold them, so no head can move between
	// the check below and the write; taken in sorted order, so two
	// imports never deadlock.
	var ids []string
	for _, l := range im.heads {
		ids = append(ids, l.Session)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		s := im.d.session(id)
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	if err := im.repairStored(ctx); err != nil {
		return nil, err
	}
	var moves []exportLine
	for _, l := range im.heads {
		cur, err := im.d.b.Ref(ctx, RefHeads, l.Session)
		switch {
		case len(im.d.session(l.Session).unnamed) > 0:
			// Records taken during the import: the session exists.
			return nil, errorf("store: import %q: %w with records taken meanwhile", l.Session, ErrExists)
		case err == nil && cur != *l.Hash:
			return nil, errorf("store: import %q: %w with head %s", l.Session, ErrExists, cur)
		case errors.Is(err, ErrNotFound):
			moves = append(moves, l)
		case err != nil:
			return nil, errorf("store: import %q: %w", l.Session, err)
		}
	}
	// The first commit carries every object, so the heads after it name
	// durable nodes; a session's nodes may live under another session,
	// as a fork's do.
	objs := im.objs
	for _, l := range moves {
		err := im.d.b.Commit(ctx, RefHeads, l.Session, Hash{}, *l.Hash, objs)
		if errors.Is(err, ErrConflict) {
			err = errorf("%w: created meanwhile", ErrExists)
		}
		if err != nil {
			return nil, errorf("store: import %q: %w", l.Session, err)
		}
		objs = nil
	}
	return ids, nil
}
