package store

import (
	"context"
	"errors"
	"iter"
	"log/slog"
	"slices"
	"sync"

	"github.com/batonrt/baton/contract"
)

// db is the Store over any backend: it holds every rule, the backends only
// move bytes.
type db struct {
	b        Backend
	log      *slog.Logger
	mu       sync.Mutex
	sessions map[string]*sessionState
	// late says Record hashes its nodes only before the next read (see
	// Recorder): set for a store that alone can read its backend.
	late bool
	// naming is held while nameAll names what Record took.
	naming sync.Mutex
	names  unnamed
}

// sessionState serializes a session's appends and remembers the step of
// its last known head, so an append need not re-read the head node.
type sessionState struct {
	mu   sync.Mutex
	head Hash
	step uint64
	// unnamed are the records Record appended after head, not yet
	// hashed; nameErr is why naming them last failed. A record that
	// might not encode was encoded when it was taken: its Signal is nil
	// here and its bytes are next in encoded.
	unnamed []contract.Record
	encoded [][]byte
	nameErr error
}

// nodeBuffers encode one-record appends: every backend copies or writes
// the bytes before Commit returns, so a buffer is used again, by any
// session; one kept by each session would cost every idle session its
// size.
var nodeBuffers = sync.Pool{New: func() any {
	// Room for a submit record: grown a little at a time, the buffer
	// would be allocated from deep in the encoder.
	return &nodeBuffer{bytes: make([]byte, 0, 1024)}
}}

// nodeBuffer is what a one-record append encodes into and hands to its
// backend.
type nodeBuffer struct {
	bytes []byte
	objs  [1]Object
}

// maxPooledNode bounds the buffers kept: one record with a large tool
// result should not stay in the pool.
const maxPooledNode = 64 << 10

// New returns the Store over a backend: every rule of the store (hash
// verification, chains, steps, links, checkpoints, verify, export and
// import) is kept here, so a backend only moves bytes. Closing the Store
// closes the backend.
func New(b Backend, opts ...Option) Store { return newDB(b, opts) }

func newDB(b Backend, opts []Option) *db {
	d := &db{b: b, log: slog.New(slog.DiscardHandler), sessions: map[string]*sessionState{}}
	for _, o := range opts {
		o(d)
	}
	return d
}

func (d *db) session(id string) *sessionState {
	d.mu.Lock()
	defer d.mu.Unlock()
	s, ok := d.sessions[id]
	if !ok {
		s = &sessionState{}
		d.sessions[id] = s
	}
	return s
}

func (d *db) Append(ctx context.Context, sessionID string, recs ...contract.Record) (Hash, error) {
	return d.append(ctx, sessionID, nil, recs)
}

func (d *db) AppendLinked(ctx context.Context, sessionID string, rec contract.Record, links ...Hash) (Hash, error) {
	for _, l := range links {
		if _, err := d.Node(ctx, l); err != nil {
			if errors.Is(err, ErrNotFound) {
				return Hash{}, errorf("store: append %q: link %s: %w", sessionID, l, ErrMissingParent)
			}
			return Hash{}, errorf("store: append %q: link: %w", sessionID, err)
		}
	}
	return d.append(ctx, sessionID, links, []contract.Record{rec})
}

// append commits recs after the session's head. Its frame is on the
// stack of every step a host persists, so what only a failure needs is
// formatted in functions of its own.
func (d *db) append(ctx context.Context, sessionID string, links []Hash, recs []contract.Record) (Hash, error) {
	if err := checkSession(sessionID); err != nil {
		return Hash{}, err
	}
	d.nameAll()
	if len(recs) == 0 {
		return Hash{}, appendFailed(sessionID, errorf("%w: no records", ErrInvalid))
	}
	if err := ctx.Err(); err != nil {
		return Hash{}, appendFailed(sessionID, err)
	}
	s := d.session(sessionID)
	s.mu.Lock()
	defer s.mu.Unlock()
	// What Record appended since nameAll ran comes first.
	if err := d.name(sessionID, s); err != nil {
		return Hash{}, err
	}
	head, step, err := d.tip(ctx, sessionID, s)
	if err != nil {
		return Hash{}, err
	}
	old := head
	var buf *nodeBuffer
	if len(recs) == 1 {
		buf = nodeBuffers.Get().(*nodeBuffer)
		defer func() {
			if cap(buf.bytes) <= maxPooledNode {
				buf.objs[0] = Object{}
				nodeBuffers.Put(buf)
			}
		}()
	}
	objs, head, step, err := nodes(sessionID, head, step, links, recs, buf)
	if err != nil {
		return Hash{}, err
	}
	if err := d.b.Commit(ctx, RefHeads, sessionID, old, head, objs); err != nil {
		s.head, s.step = Hash{}, 0
		return Hash{}, appendFailed(sessionID, err)
	}
	s.head, s.step = head, step
	// Checked first: the call's arguments allocate even when the logger
	// drops them, and this runs on every step.
	if d.log.Enabled(ctx, slog.LevelDebug) {
		d.logAppend(sessionID, len(recs), head)
	}
	return head, nil
}

// nodes encodes recs as the nodes that follow head, at step, the first
// linking links; into buf when there is one record, which the backend
// copies if it keeps it.
func nodes(sessionID string, head Hash, step uint64, links []Hash, recs []contract.Record, buf *nodeBuffer) ([]Object, Hash, uint64, error) {
	var objs []Object
	if buf != nil {
		objs = buf.objs[:0]
	} else {
		objs = make([]Object, 0, len(recs))
	}
	for i := range recs {
		rec := &recs[i]
		if rec.Step != step+1 {
			return nil, Hash{}, 0, outOfSequence(sessionID, rec.Step, step)
		}
		n := Node{Parent: head, Record: *rec}
		if i == 0 {
			n.Links = links
		}
		var b []byte
		if buf != nil {
			b = buf.bytes[:0]
		}
		b, err := appendNode(b, &n)
		if buf != nil {
			buf.bytes = b
		}
		if err != nil {
			return nil, Hash{}, 0, appendFailed(sessionID, err)
		}
		if len(b) > MaxNode {
			return nil, Hash{}, 0, appendFailed(sessionID, nodeTooLarge(len(b)))
		}
		head, step = HashOf(b), rec.Step
		objs = append(objs, Object{Hash: head, Bytes: b})
	}
	return objs, head, step, nil
}

// logAppend, appendFailed and outOfSequence hold what only logging and
// failures need, out of append's frame.
//
//go:noinline
func (d *db) logAppend(sessionID string, records int, head Hash) {
	d.log.Debug("store: appended", "session", sessionID, "records", records, "head", head)
}

//go:noinline
func appendFailed(sessionID string, err error) error {
	return errorf("store: append %q: %w", sessionID, err)
}

//go:noinline
func outOfSequence(sessionID string, got, after uint64) error {
	return errorf("store: append %q: %w: record step %d after step %d", sessionID, ErrInvalid, got, after)
}

// tip returns the session's head and its step (zero for a new session).
func (d *db) tip(ctx context.Context, sessionID string, s *sessionState) (Hash, uint64, error) {
	head, err := d.b.Ref(ctx, RefHeads, sessionID)
	if errors.Is(err, ErrNotFound) {
		return Hash{}, 0, nil
	}
	if err != nil {
		return Hash{}, 0, err
	}
	if head == s.head && !head.IsZero() {
		return head, s.step, nil
	}
	return d.storedTip(ctx, sessionID, head)
}

// storedTip reads the step of a head this process did not append, such
// as a session's first append after Resume. Not inlined: the node it
// reads would take room in the frame of every append.
//
//go:noinline
func (d *db) storedTip(ctx context.Context, sessionID string, head Hash) (Hash, uint64, error) {
	n, err := d.headNode(ctx, sessionID, head)
	if err != nil {
		return Hash{}, 0, err
	}
	return head, n.Record.Step, nil
}

// headNode reads the node a session's head names. Its errors name the
// session: a damaged head is met cold, by whoever reads the session next
// (another process sharing the store, a resume), and the hash alone does
// not say which conversation to repair.
func (d *db) headNode(ctx context.Context, sessionID string, head Hash) (Node, error) {
	n, err := d.node(ctx, head)
	if errors.Is(err, ErrNotFound) {
		return Node{}, errorf("store: head of %q: %w: %s", sessionID, ErrBrokenRef, head)
	}
	if err != nil {
		return Node{}, errorf("store: head of %q: %w", sessionID, err)
	}
	return n, nil
}

func (d *db) Head(ctx context.Context, sessionID string) (Hash, error) {
	if err := checkSession(sessionID); err != nil {
		return Hash{}, err
	}
	d.nameAll()
	if err := d.namingFailed(sessionID); err != nil {
		return Hash{}, err
	}
	head, err := d.b.Ref(ctx, RefHeads, sessionID)
	if err != nil {
		return Hash{}, err
	}
	if _, err := d.headNode(ctx, sessionID, head); err != nil {
		return Hash{}, err
	}
	return head, nil
}

func (d *db) Node(ctx context.Context, h Hash) (Node, error) {
	d.nameAll()
	return d.node(ctx, h)
}

// node is Node without naming first, for callers that hold a session's
// lock, which naming takes.
func (d *db) node(ctx context.Context, h Hash) (Node, error) {
	if err := ctx.Err(); err != nil {
		return Node{}, errorf("store: node %s: %w", h, err)
	}
	if h.IsZero() {
		return Node{}, errorf("store: node: %w: zero hash", ErrNotFound)
	}
	b, err := d.b.Get(ctx, h)
	if err != nil {
		return Node{}, err
	}
	return DecodeNode(h, b)
}

func (d *db) Walk(ctx context.Context, from Hash) iter.Seq2[Node, error] {
	return func(yield func(Node, error) bool) {
		for h, first := from, true; !h.IsZero(); first = false {
			n, err := d.Node(ctx, h)
			if err != nil && !first && errors.Is(err, ErrNotFound) {
				err = errorf("store: parent %s: %w", h, ErrMissingParent)
			}
			if !yield(n, err) || err != nil {
				return
			}
			h = n.Parent
		}
	}
}

// chain returns the nodes from the one after stop (or the root) to head,
// oldest first, checking that steps run one by one.
func (d *db) chain(ctx context.Context, head, stop Hash) ([]Node, error) {
	var nodes []Node
	for n, err := range d.Walk(ctx, head) {
		if err != nil {
			return nil, err
		}
		if n.Hash == stop {
			break
		}
		if len(nodes) > 0 && nodes[len(nodes)-1].Record.Step != n.Record.Step+1 {
			return nil, errorf("store: node %s: %w: step %d follows step %d", nodes[len(nodes)-1].Hash, ErrCorrupt, nodes[len(nodes)-1].Record.Step, n.Record.Step)
		}
		nodes = append(nodes, n)
	}
	slices.Reverse(nodes)
	return nodes, nil
}

func (d *db) Records(ctx context.Context, sessionID string) ([]contract.Record, error) {
	head, err := d.Head(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	nodes, err := d.chain(ctx, head, Hash{})
	if err != nil {
		return nil, errorf("store: records of %q: %w", sessionID, err)
	}
	if len(nodes) > 0 && nodes[0].Record.Step != 1 {
		return nil, errorf("store: records of %q: %w: first step is %d", sessionID, ErrCorrupt, nodes[0].Record.Step)
	}
	recs := make([]contract.Record, len(nodes))
	for i, n := range nodes {
		recs[i] = n.Record
	}
	return recs, nil
}

func (d *db) Sessions(ctx context.Context) ([]string, error) {
	d.nameAll()
	return d.b.Refs(ctx, RefHeads)
}

func (d *db) Close() error { return d.b.Close() }

func (d *db) Lock(ctx context.Context, sessionID string) (func() error, error) {
	l, err := d.Lease(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return l.Release, nil
}

func (d *db) Lease(ctx context.Context, sessionID string) (*Lease, error) {
	if err := checkSession(sessionID); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, errorf("store: lock %q: %w", sessionID, err)
	}
	c, err := d.b.Lock(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return NewLease(c), nil
}

func (d *db) Fork(ctx context.Context, newSessionID string, at Hash) error {
	if err := checkSession(newSessionID); err != nil {
		return err
	}
	d.nameAll()
	s := d.session(newSessionID)
	s.mu.Lock()
	defer s.mu.Unlock()
	// Records taken since nameAll ran make the session exist too.
	if _, err := d.b.Ref(ctx, RefHeads, newSessionID); err == nil || len(s.unnamed) > 0 {
		return errorf("store: fork %q: %w", newSessionID, ErrExists)
	} else if !errors.Is(err, ErrNotFound) {
		return errorf("store: fork %q: %w", newSessionID, err)
	}
	if _, err := d.node(ctx, at); err != nil {
		return errorf("store: fork %q at %s: %w", newSessionID, at, err)
	}
	err := d.b.Commit(ctx, RefHeads, newSessionID, Hash{}, at, nil)
	if errors.Is(err, ErrConflict) {
		return errorf("store: fork %q: %w", newSessionID, ErrExists)
	}
	if err != nil {
		return errorf("store: fork %q: %w", newSessionID, err)
	}
	return nil
}
