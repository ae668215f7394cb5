package store_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

// exportOf returns the lines of an export of two sessions: a header, a's
// three nodes and head, b's two nodes and head, and the end line.
func exportOf(t *testing.T) []string {
	t.Helper()
	ctx := context.Background()
	src := store.NewMemory()
	for _, s := range []struct {
		id string
		n  int
	}{{"a", 3}, {"b", 2}} {
		if _, err := src.Append(ctx, s.id, storetest.Script("run-"+s.id, s.n)...); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := src.Export(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) != 9 {
		t.Fatalf("export has %d lines, want 9:\n%s", len(lines), buf.String())
	}
	return lines
}

// TestImportRefusesCutExport: an export cut short at a line boundary, as
// by an interrupted copy or a full disk, is refused as corrupt with what
// is missing named, and leaves the store without the sessions that made
// it; so is one whose end line does not match what came before it or
// that goes on after it.
func TestImportRefusesCutExport(t *testing.T) {
	lines := exportOf(t)
	join := func(ls ...string) string { return strings.Join(ls, "") }
	whole := join(lines...)
	cases := []struct {
		name, in, want string
	}{
		{"after the header", join(lines[:1]...), "store: import: corrupt object: export cut short: it ends after line 1 without the end line a version 2 export ends with"},
		{"mid-nodes", join(lines[:3]...), "store: import: corrupt object: export cut short: it ends after line 3 without the end line a version 2 export ends with"},
		{"after a whole session", join(lines[:5]...), "store: import: corrupt object: export cut short: it ends after line 5 without the end line a version 2 export ends with"},
		{"just before the end line", join(lines[:8]...), "store: import: corrupt object: export cut short: it ends after line 8 without the end line a version 2 export ends with"},
		{"mid-end line", join(lines[:8]...) + lines[8][:len(lines[8])/2], "store: import line 9: corrupt object: unexpected EOF"},
		{"a node left out", join(lines[:2]...) + join(lines[3:]...), "store: import line 3: parent of"},
		{"a session left out", join(lines[:5]...) + lines[8], "store: import line 6: corrupt object: the end line counts 5 nodes and 2 sessions, the export holds 3 and 1"},
		{"a head edited", join(lines[:4]...) + strings.Replace(lines[4], `"session":"a"`, `"session":"c"`, 1) + join(lines[5:]...), "store: import line 9: corrupt object: the end line's blake3 "},
		{"a line after the end line", whole + lines[7], "store: import line 10: corrupt object: a line after the end line"},
		{"a second end line", whole + lines[8], "store: import line 10: corrupt object: a line after the end line"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			dst := store.NewMemory()
			ids, err := dst.Import(ctx, strings.NewReader(tt.in))
			if err == nil {
				t.Fatalf("imported %v", ids)
			}
			if !errors.Is(err, store.ErrCorrupt) && !errors.Is(err, store.ErrMissingParent) {
				t.Errorf("error %v wraps neither ErrCorrupt nor ErrMissingParent", err)
			}
			if got := err.Error()[:min(len(err.Error()), len(tt.want))]; got != tt.want {
				t.Errorf("error mismatch (-want +got):\n%s", cmp.Diff(tt.want, err.Error()))
			}
			if got, err := dst.Sessions(ctx); err != nil || len(got) != 0 {
				t.Errorf("a refused import left sessions %v (%v)", got, err)
			}
		})
	}
}

// TestExportEndsWithItsCounts: a whole export carries the version that
// needs an end line and round-trips, blank lines after its end allowed.
func TestExportEndsWithItsCounts(t *testing.T) {
	lines := exportOf(t)
	if diff := cmp.Diff(`{"kind":"baton-store","v":2}`+"\n", lines[0]); diff != "" {
		t.Errorf("header mismatch (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(lines[8], `{"kind":"end","nodes":5,"sessions":2,"blake3":"`) {
		t.Errorf("end line %q", lines[8])
	}
	for _, tail := range []string{"", "\n\n"} {
		ctx := context.Background()
		dst := store.NewMemory()
		ids, err := dst.Import(ctx, strings.NewReader(strings.Join(lines, "")+tail))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"a", "b"}, ids); diff != "" {
			t.Errorf("imported sessions mismatch (-want +got):\n%s", diff)
		}
		var again bytes.Buffer
		if err := dst.Export(ctx, &again); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(strings.Join(lines, ""), again.String()); diff != "" {
			t.Errorf("export of the import differs (-first +second):\n%s", diff)
		}
	}
}

// TestImportOfVersion1Export: exports of releases before the end line
// (version 1, as recorded under the repository's testdata/sessions) import
// as they always did, a cut one included: version 1 has nothing to tell
// a cut from a whole export by, so what made it is imported.
func TestImportOfVersion1Export(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "sessions", "allow-running.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte(`{"kind":"baton-store","v":1}`+"\n")) {
		t.Fatalf("not a version 1 export: %.40q", b)
	}
	ctx := context.Background()
	ids, err := store.NewMemory().Import(ctx, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"shared-ink-5e1d", "shared-ink-5e1d/2.0", "shared-ink-5e1d/2.1"}, ids); diff != "" {
		t.Errorf("imported sessions mismatch (-want +got):\n%s", diff)
	}
	lines := strings.SplitAfter(string(b), "\n")
	head := 0
	for i, l := range lines {
		if strings.HasPrefix(l, `{"kind":"head"`) {
			head = i
			break
		}
	}
	ids, err = store.NewMemory().Import(ctx, strings.NewReader(strings.Join(lines[:head+1], "")))
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 1 {
		t.Errorf("a cut version 1 export imported %v, want its first session", ids)
	}
	_, err = store.NewMemory().Import(ctx, strings.NewReader(string(b)+`{"kind":"end","nodes":1,"sessions":1}`+"\n"))
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), `unknown line kind "end"`) {
		t.Errorf("a version 1 export with an end line: %v, want it refused as an unknown kind", err)
	}
}
