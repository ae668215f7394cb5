package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"sync"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// auditBackend keeps everything in memory and reports each commit.
type auditBackend struct {
	mu      sync.Mutex
	out     io.Writer
	objects map[store.Hash][]byte
	refs    map[store.RefKind]map[string]store.Hash
	locks   map[string]*sessionLock
}

func newAuditBackend(out io.Writer) *auditBackend {
	return &auditBackend{out: out, objects: map[store.Hash][]byte{}, refs: map[store.RefKind]map[string]store.Hash{}, locks: map[string]*sessionLock{}}
}

func (b *auditBackend) Get(ctx context.Context, h store.Hash) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.objects[h]
	if !ok {
		return nil, fmt.Errorf("audit: object %s: %w", h, store.ErrNotFound)
	}
	return slices.Clone(o), nil
}

func (b *auditBackend) Ref(ctx context.Context, kind store.RefKind, session string) (store.Hash, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	h, ok := b.refs[kind][session]
	if !ok {
		return store.Hash{}, fmt.Errorf("audit: %s of %q: %w", kind, session, store.ErrNotFound)
	}
	return h, nil
}

func (b *auditBackend) Refs(ctx context.Context, kind store.RefKind) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for id := range b.refs[kind] {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

// Commit is the one write: the objects, then the ref, only if the ref
// still holds what the caller read.
func (b *auditBackend) Commit(ctx context.Context, kind store.RefKind, session string, old, new store.Hash, objs []store.Object) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if cur := b.refs[kind][session]; cur != old {
		return fmt.Errorf("audit: %s of %q: %w", kind, session, store.ErrConflict)
	}
	for _, o := range objs {
		if _, ok := b.objects[o.Hash]; !ok {
			b.objects[o.Hash] = slices.Clone(o.Bytes)
		}
	}
	if b.refs[kind] == nil {
		b.refs[kind] = map[string]store.Hash{}
	}
	b.refs[kind][session] = new
	fmt.Fprintf(b.out, "audit: %s of %s moved, objects written: %d\n", kind, session, len(objs))
	return nil
}

func (b *auditBackend) Lock(ctx context.Context, session string) (io.Closer, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.locks[session] != nil {
		return nil, fmt.Errorf("audit: %q: %w", session, store.ErrLocked)
	}
	l := &sessionLock{b: b, session: session}
	b.locks[session] = l
	return l, nil
}

func (b *auditBackend) Close() error { return nil }

// sessionLock is one holder's hold on a session's lock.
type sessionLock struct {
	b       *auditBackend
	session string
}

// Close lets the lock go; closed again, it frees nothing another holder
// took since.
func (l *sessionLock) Close() error {
	l.b.mu.Lock()
	defer l.b.mu.Unlock()
	if l.b.locks[l.session] == l {
		delete(l.b.locks, l.session)
	}
	return nil
}

func main() {
	st := store.New(newAuditBackend(os.Stdout))
	defer st.Close()
	model := scripted.New(scripted.Reply{Text: "Noted."})
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: model}, Env: conductor.Env{Store: st, SessionID: "audited"}})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	if _, err := agent.Submit(context.Background(), conductor.Text("Remember the milk.")); err != nil {
		log.Fatal(err)
	}
	records, err := st.Records(context.Background(), "audited")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d records stored\n", len(records))
}
