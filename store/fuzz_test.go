package store_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
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

// FuzzImport imports a valid export cut, with a byte flipped and any
// bytes after: it never panics, a refusal is a typed error, and what it
// accepts verifies.
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
	export := buf.Bytes()
	// As FuzzOpenLog: the fuzzer varies how a valid export is damaged,
	// which keeps its inputs a few bytes long and their minimizing short;
	// fed whole exports it stalled minimizing after 3,000 executions.
	f.Add(uint16(len(export)), uint16(0), byte(0), []byte{})
	f.Add(uint16(len(export)/2), uint16(0), byte(0), []byte{})
	f.Add(uint16(len(export)), uint16(200), byte(1), []byte{})
	f.Add(uint16(0), uint16(0), byte(0), []byte("{\"kind\":\"baton-store\",\"v\":1}\n{\"kind\":\"head\",\"session\":\"x\",\"hash\":\"00\"}\n"))
	f.Fuzz(func(t *testing.T, cut, at uint16, flip byte, tail []byte) {
		b := slices.Clone(export[:min(int(cut), len(export))])
		if int(at) < len(b) {
			b[at] ^= flip
		}
		b = append(b, tail...)
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

// FuzzOpenLog opens a store whose session log is a valid log cut, with a
// byte flipped and arbitrary bytes after (any frames at all): it
// never panics, damage is a typed error, and a session that reads cleanly
// takes its next record and keeps what it had across a reopen.
func FuzzOpenLog(f *testing.F) {
	seed := vfs.NewMem()
	st, err := store.OpenFS(seed)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := st.Append(f.Context(), "s", storetest.Script("s", 2)...); err != nil {
		f.Fatal(err)
	}
	if _, err := st.Append(f.Context(), "s", storetest.Script("s", 3)[2]); err != nil {
		f.Fatal(err)
	}
	log, err := seed.ReadFile("logs/s.log")
	if err != nil {
		f.Fatal(err)
	}
	// The fuzzer varies how a valid log is damaged (where it is cut, one
	// byte flipped, what follows), not the log itself: its inputs stay a
	// few bytes long, so minimizing a new one takes moments. Fuzzing the
	// whole log, it spent 18 s of 20 minimizing.
	f.Add(uint16(len(log)), uint16(0), byte(0), []byte{})
	f.Add(uint16(len(log)-7), uint16(0), byte(0), []byte{})
	f.Add(uint16(len(log)), uint16(0), byte(0), []byte{0, 0, 0})
	f.Add(uint16(len(log)), uint16(40), byte(1), []byte{})
	f.Fuzz(func(t *testing.T, cut, at uint16, flip byte, tail []byte) {
		ctx := t.Context()
		b := slices.Clone(log[:min(int(cut), len(log))])
		if int(at) < len(b) {
			b[at] ^= flip
		}
		b = append(b, tail...)
		mem := vfs.NewMem()
		if err := mem.MkdirAll("logs"); err != nil {
			t.Fatal(err)
		}
		writeRaw(t, mem, "logs/s.log", b)
		st, err := store.OpenFS(mem)
		if err != nil {
			if !typed(err) {
				t.Fatalf("open: untyped error %v", err)
			}
			return
		}
		recs, err := st.Records(ctx, "s")
		if err != nil {
			if !typed(err) {
				t.Fatalf("records: untyped error %v", err)
			}
			return
		}
		next := storetest.Script("s", len(recs)+1)[len(recs)]
		if _, err := st.Append(ctx, "s", next); err != nil {
			t.Fatalf("append after %d clean records: %v", len(recs), err)
		}
		again, err := store.OpenFS(mem)
		if err != nil {
			t.Fatal(err)
		}
		got, err := again.Records(ctx, "s")
		if err != nil || len(got) != len(recs)+1 {
			t.Fatalf("after reopen: %d records (%v), want %d", len(got), err, len(recs)+1)
		}
	})
}
