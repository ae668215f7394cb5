package store_test

import (
	"bytes"
	"errors"
	"path"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
)

func objPath(h store.Hash) string { s := h.String(); return "objects/" + s[:2] + "/" + s[2:] }

func writeRaw(t *testing.T, fs vfs.FS, name string, b []byte) {
	t.Helper()
	if err := fs.MkdirAll(path.Dir(name)); err != nil {
		t.Fatal(err)
	}
	f, err := fs.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeLoose writes recs as session s in the layout of format 1, one file
// per object and per ref, and returns the nodes' hashes.
func writeLoose(t *testing.T, fs vfs.FS, recs []contract.Record) []store.Hash {
	t.Helper()
	writeRaw(t, fs, "format", []byte("baton-store 1\n"))
	var nodes []store.Hash
	var parent store.Hash
	for _, r := range recs {
		b, err := store.EncodeNode(store.Node{Parent: parent, Record: r})
		if err != nil {
			t.Fatal(err)
		}
		parent = store.HashOf(b)
		writeRaw(t, fs, objPath(parent), b)
		nodes = append(nodes, parent)
	}
	writeRaw(t, fs, "refs/heads/s", []byte(parent.String()+"\n"))
	return nodes
}

// TestDamageIsTypedError damages a session stored in format 1 in each way
// the issue names and checks that reads and Verify report the right
// sentinel; the rules are the Store's, whatever the backend.
func TestDamageIsTypedError(t *testing.T) {
	ctx := t.Context()
	recs := storetest.Script("r", 4)
	cases := []struct {
		name   string
		damage func(t *testing.T, fs vfs.FS, nodes []store.Hash)
		want   error
	}{
		{"empty", func(t *testing.T, fs vfs.FS, n []store.Hash) { writeRaw(t, fs, objPath(n[3]), nil) }, store.ErrCorrupt},
		{"truncated", func(t *testing.T, fs vfs.FS, n []store.Hash) {
			b, _ := fs.ReadFile(objPath(n[2]))
			writeRaw(t, fs, objPath(n[2]), b[:len(b)/2])
		}, store.ErrCorrupt},
		{"bit flipped", func(t *testing.T, fs vfs.FS, n []store.Hash) {
			b, _ := fs.ReadFile(objPath(n[1]))
			b[len(b)/3] ^= 0x04
			writeRaw(t, fs, objPath(n[1]), b)
		}, store.ErrCorrupt},
		{"misnamed", func(t *testing.T, fs vfs.FS, n []store.Hash) {
			b, _ := fs.ReadFile(objPath(n[0]))
			writeRaw(t, fs, objPath(n[2]), b)
		}, store.ErrCorrupt},
		{"missing parent", func(t *testing.T, fs vfs.FS, n []store.Hash) {
			if err := fs.Remove(objPath(n[1])); err != nil {
				t.Fatal(err)
			}
		}, store.ErrMissingParent},
		{"head names missing node", func(t *testing.T, fs vfs.FS, n []store.Hash) {
			if err := fs.Remove(objPath(n[3])); err != nil {
				t.Fatal(err)
			}
		}, store.ErrBrokenRef},
		{"garbled ref", func(t *testing.T, fs vfs.FS, n []store.Hash) {
			writeRaw(t, fs, "refs/heads/s", []byte("zz\n"))
		}, store.ErrCorrupt},
		{"newer node version", func(t *testing.T, fs vfs.FS, n []store.Hash) {
			b, _ := fs.ReadFile(objPath(n[3]))
			b = bytes.Replace(b, []byte(`{"v":1,`), []byte(`{"v":2,`), 1)
			h := store.HashOf(b)
			writeRaw(t, fs, objPath(h), b)
			writeRaw(t, fs, "refs/heads/s", []byte(h.String()+"\n"))
		}, store.ErrSchemaVersion},
		{"newer record version", func(t *testing.T, fs vfs.FS, n []store.Hash) {
			b, _ := fs.ReadFile(objPath(n[3]))
			b = bytes.Replace(b, []byte(`"record":{"v":1,`), []byte(`"record":{"v":7,`), 1)
			h := store.HashOf(b)
			writeRaw(t, fs, objPath(h), b)
			writeRaw(t, fs, "refs/heads/s", []byte(h.String()+"\n"))
		}, store.ErrSchemaVersion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := vfs.NewMem()
			nodes := writeLoose(t, fs, recs)
			c.damage(t, fs, nodes)
			st, err := store.OpenFS(fs)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Records(ctx, "s"); !errors.Is(err, c.want) {
				t.Errorf("Records: got %v, want %v", err, c.want)
			}
			if err := st.Verify(ctx); !errors.Is(err, c.want) {
				t.Errorf("Verify: got %v, want %v", err, c.want)
			}
		})
	}
}

func TestNewerFolderFormatRefused(t *testing.T) {
	fs := vfs.NewMem()
	if _, err := store.OpenFS(fs); err != nil {
		t.Fatal(err)
	}
	writeRaw(t, fs, "format", []byte("baton-store 9\n"))
	if _, err := store.OpenFS(fs); !errors.Is(err, store.ErrSchemaVersion) {
		t.Fatalf("got %v, want ErrSchemaVersion", err)
	}
}
