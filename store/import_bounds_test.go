package store_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

// A line holding a 50 MB fake hash is refused with a short error, not
// one quoting the whole value.
func TestImportBoundsItsErrors(t *testing.T) {
	in := `{"kind":"baton-store","v":1}` + "\n" + `{"kind":"node","hash":"` + strings.Repeat("a", 50<<20) + `","node":{}}` + "\n"
	_, err := store.NewMemory().Import(context.Background(), strings.NewReader(in))
	if err == nil || len(err.Error()) > 2<<10 || !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("got a %d-byte error %.200v, want a short one wrapping ErrCorrupt", len(errorText(err)), err)
	}
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// damagingBackend returns altered bytes for one object, as a disk that
// flipped a bit would.
type damagingBackend struct {
	store.Backend
	damaged store.Hash
}

func (d damagingBackend) Get(ctx context.Context, h store.Hash) ([]byte, error) {
	b, err := d.Backend.Get(ctx, h)
	if err == nil && h == d.damaged {
		b = bytes.Clone(b)
		b[len(b)/2] ^= 1
	}
	return b, err
}

// Importing a session into a store that has it with a damaged node fails
// (the backend keeps what it has, so the import cannot repair it) rather
// than report the session imported.
func TestImportRefusesOverADamagedNode(t *testing.T) {
	ctx := t.Context()
	backend := store.NewMemoryBackend()
	st := store.New(backend)
	head, err := st.Append(ctx, "s", storetest.Script("r1", 3)...)
	if err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := st.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	damaged := store.New(damagingBackend{Backend: backend, damaged: head})
	_, err = damaged.Import(ctx, bytes.NewReader(export.Bytes()))
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), head.String()) {
		t.Fatalf("import over a damaged node: %v, want ErrCorrupt naming %s", err, head)
	}
	if _, err := st.Import(ctx, bytes.NewReader(export.Bytes())); err != nil {
		t.Errorf("import over the intact store: %v", err)
	}
}
