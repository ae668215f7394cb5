package store_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

func typed(err error) bool {
	for _, s := range []error{store.ErrCorrupt, store.ErrSchemaVersion, store.ErrMissingParent, store.ErrInvalid, store.ErrExists, store.ErrNotFound} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func FuzzDecodeNode(f *testing.F) {
	recs := storetest.Script("f", 3)
	root, _ := store.EncodeNode(store.Node{Record: recs[0]})
	child, _ := store.EncodeNode(store.Node{Parent: store.HashOf(root), Links: []store.Hash{store.HashOf(nil)}, Record: recs[1]})
	f.Add(root)
	f.Add(child)
	f.Add([]byte(`{"v":2,"kind":"node"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		h := store.HashOf(b)
		n, err := store.DecodeNode(h, b)
		if err != nil {
			if !typed(err) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if n.Hash != h || n.Record.Signal == nil {
			t.Fatalf("decoded node without hash or signal: %+v", n)
		}
		if _, err := store.DecodeNode(store.HashOf(append(b, ' ')), b); !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("misnamed node accepted: %v", err)
		}
	})
}

func FuzzImport(f *testing.F) {
	src := store.NewMemory()
	ctx := f.Context()
	if _, err := src.Append(ctx, "a", storetest.Script("a", 4)...); err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := src.Export(ctx, &buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("{\"kind\":\"baton-store\",\"v\":1}\n{\"kind\":\"head\",\"session\":\"x\",\"hash\":\"00\"}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st := store.NewMemory()
		ids, err := st.Import(t.Context(), bytes.NewReader(b))
		if err != nil {
			if !typed(err) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if err := st.Verify(t.Context()); err != nil {
			t.Fatalf("import of %v accepted, then Verify: %v", ids, err)
		}
	})
}
