package store_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
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

// Importing a session into a store that has it with a damaged node, over
// a backend that cannot replace stored bytes (not a store.Repairer),
// fails rather than report the session imported.
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

// importAlloc is what importing in allocates, in bytes.
func importAlloc(t *testing.T, st store.Store, in string) (uint64, error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := st.Import(context.Background(), strings.NewReader(in))
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// A hostile line costs memory of the order of the line bound, not
// several times its own size: a 50 MB fake hash took 575 MB.
func TestImportBoundsItsMemory(t *testing.T) {
	in := `{"kind":"baton-store","v":1}` + "\n" + `{"kind":"node","hash":"` + strings.Repeat("a", 50<<20) + `","node":{}}` + "\n"
	alloc, err := importAlloc(t, store.NewMemory(), in)
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("import of a 50 MB line: %v, want ErrCorrupt saying the line is too long", err)
	}
	if alloc > 64<<20 {
		t.Errorf("import of a 50 MB line allocated %d MiB", alloc>>20)
	}
	// A fake hash within the bound is refused without being copied about.
	in = `{"kind":"baton-store","v":1}` + "\n" + `{"kind":"node","hash":"` + strings.Repeat("a", 10<<20) + `","node":{}}` + "\n"
	alloc, err = importAlloc(t, store.NewMemory(), in)
	if !errors.Is(err, store.ErrCorrupt) || len(err.Error()) > 1<<10 {
		t.Fatalf("import of a 10 MB fake hash: %.300v, want a short ErrCorrupt", err)
	}
	if alloc > 64<<20 {
		t.Errorf("import of a 10 MB fake hash allocated %d MiB", alloc>>20)
	}
}

// An unknown kind of any size is quoted by a short prefix only.
func TestImportQuotesAShortPrefix(t *testing.T) {
	for name, line := range map[string]string{
		"kind":    `{"kind":"` + strings.Repeat("k", 1<<20) + `"}`,
		"header":  `{"kind":"` + strings.Repeat("h", 1<<20) + `"}`,
		"session": `{"kind":"head","session":"` + strings.Repeat("s", 1<<20) + `","hash":"` + strings.Repeat("0", 64) + `"}`,
		"hash":    `{"kind":"node","hash":"` + strings.Repeat("z", 64) + `","node":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			in := `{"kind":"baton-store","v":1}` + "\n" + line + "\n"
			if name == "header" {
				in = line + "\n"
			}
			_, err := store.NewMemory().Import(context.Background(), strings.NewReader(in))
			if err == nil || len(err.Error()) > 300 {
				t.Fatalf("got %.400v (%d bytes), want a short error", err, len(errorText(err)))
			}
		})
	}
}

// A node too big for an import, which a store written before stores
// kept store.MaxNode may hold, makes Export fail, naming it, rather
// than write an export no import reads; a node just under the bound
// goes through.
func TestExportRefusesANodeImportWouldRefuse(t *testing.T) {
	for name, size := range map[string]int{"over": 16 << 20, "under": 15 << 20} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			recs := storetest.Script("r1", 1)
			recs[0].Signal = contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText(strings.Repeat("x", size))}}
			node, err := store.EncodeNode(store.Node{Record: recs[0]})
			if err != nil {
				t.Fatal(err)
			}
			// Committed to the backend, as an older release appended it.
			backend := store.NewMemoryBackend()
			head := store.HashOf(node)
			if err := backend.Commit(ctx, store.RefHeads, "s", store.Hash{}, head, []store.Object{{Hash: head, Bytes: node}}); err != nil {
				t.Fatal(err)
			}
			st := store.New(backend)
			var export bytes.Buffer
			err = st.Export(ctx, &export)
			if name == "over" {
				if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), head.String()) || !strings.Contains(err.Error(), strconv.Itoa(store.MaxNode)) {
					t.Fatalf("export of a %d-byte node: %v, want ErrInvalid naming %s and the limit", size, err, head)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.NewMemory().Import(ctx, &export); err != nil {
				t.Fatalf("import of a %d-byte node: %v", size, err)
			}
		})
	}
}

// Importing a session into a store whose copy of one of its nodes is
// damaged repairs the node from the verified import: the store verifies
// again and its records are the export's. It printed "imported" and left
// the node damaged.
func TestImportRepairsADamagedNode(t *testing.T) {
	ctx := t.Context()
	st := store.NewMemory()
	recs := storetest.Script("r1", 3)
	head, err := st.Append(ctx, "s", recs...)
	if err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := st.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	store.DamageObject(st, head)
	if err := st.Verify(ctx); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("verify of the damaged store: %v, want ErrCorrupt", err)
	}
	if _, err := st.Import(ctx, bytes.NewReader(export.Bytes())); err != nil {
		t.Fatalf("import over a damaged node: %v", err)
	}
	if err := st.Verify(ctx); err != nil {
		t.Fatalf("verify after the import: %v", err)
	}
	got, err := st.Records(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("%d records after the repair, want %d", len(got), len(recs))
	}
}

// An export is read line by line up to store.MaxImportLine, a little
// more than store.MaxNode; a node in that margin, over MaxNode, is one
// no store takes by Append, and Import refuses it the same way, so a
// store never holds a node it could not export again.
func TestImportRefusesANodeOverMaxNode(t *testing.T) {
	rec := storetest.Script("r1", 1)[0]
	sub := rec.Signal.(contract.Submitted)
	sub.RunID = ""
	rec.Signal = sub
	empty, err := store.EncodeNode(store.Node{Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	sub.RunID = strings.Repeat("x", store.MaxNode+1-len(empty))
	rec.Signal = sub
	node, err := store.EncodeNode(store.Node{Record: rec})
	if err != nil || len(node) != store.MaxNode+1 {
		t.Fatalf("node of %d bytes, %v; want %d", len(node), err, store.MaxNode+1)
	}
	h := store.HashOf(node)
	in := `{"kind":"baton-store","v":1}` + "\n" + `{"kind":"node","hash":"` + h.String() + `","node":` + string(node) + "}\n" +
		`{"kind":"head","session":"s","hash":"` + h.String() + `"}` + "\n"
	st := store.NewMemory()
	_, err = st.Import(t.Context(), strings.NewReader(in))
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), strconv.Itoa(store.MaxNode)) {
		t.Fatalf("Import of a node of store.MaxNode+1 bytes: got %.300v, want ErrInvalid naming the limit", err)
	}
	if ids, err := st.Sessions(t.Context()); err != nil || len(ids) != 0 {
		t.Fatalf("sessions after a refused import = %v, %v; want none", ids, err)
	}
}
