package store_test

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
)

// gateFS holds the first OpenAppend after it is armed until released, so
// a test can stop an operation between its checks and its writes.
type gateFS struct {
	vfs.FS
	mu       sync.Mutex
	armed    bool
	entered  chan struct{}
	released chan struct{}
}

func (g *gateFS) OpenAppend(name string) (vfs.File, error) {
	g.mu.Lock()
	hold := g.armed
	g.armed = false
	g.mu.Unlock()
	if hold {
		close(g.entered)
		<-g.released
	}
	return g.FS.OpenAppend(name)
}

// An Import that found a session absent must not overwrite a head an
// Append acknowledged meanwhile: Import once checked and moved heads
// without the session's append lock, so the acknowledged records vanished
// from the session.
func TestImportDoesNotOverwriteConcurrentAppend(t *testing.T) {
	ctx := t.Context()
	src := store.NewMemory()
	if _, err := src.Append(ctx, "s", storetest.Script("r1", 3)...); err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := src.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	g := &gateFS{FS: vfs.NewMem(), entered: make(chan struct{}), released: make(chan struct{})}
	st, err := store.OpenFS(g)
	if err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	g.armed = true
	g.mu.Unlock()

	type result struct {
		head store.Hash
		err  error
	}
	imported := make(chan error, 1)
	go func() {
		_, err := st.Import(ctx, bytes.NewReader(export.Bytes()))
		imported <- err
	}()
	<-g.entered
	appended := make(chan result, 1)
	go func() {
		h, err := st.Append(ctx, "s", storetest.Script("r2", 1)...)
		appended <- result{h, err}
	}()
	var app result
	gotApp := false
	select {
	case app = <-appended:
		gotApp = true
	case <-time.After(100 * time.Millisecond):
		// The append waits for the import, as it should.
	}
	close(g.released)
	importErr := <-imported
	if !gotApp {
		app = <-appended
	}
	head, err := st.Head(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case app.err == nil && importErr == nil:
		t.Fatalf("both the append (head %s) and the import succeeded; the head is %s", app.head, head)
	case app.err == nil && head != app.head:
		t.Fatalf("acknowledged append head %s was overwritten by %s", app.head, head)
	case app.err != nil && !errors.Is(app.err, store.ErrInvalid):
		t.Fatalf("append after the import: got %v, want ErrInvalid", app.err)
	case importErr != nil && !errors.Is(importErr, store.ErrExists):
		t.Fatalf("import after the append: got %v, want ErrExists", importErr)
	}
}
