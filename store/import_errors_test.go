package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/store"
)

// An import's error names the store once, at its start, whatever layers
// it went through, and still wraps the error each layer named.
func TestImportErrorsNameTheStoreOnce(t *testing.T) {
	header := `{"kind":"baton-store","v":1}` + "\n"
	tests := []struct {
		name, in, want string
		is             error
	}{
		{"no header", `{"kind":"x"}`, `store: import line 1: corrupt object: want a baton-store header, got kind "x"`, store.ErrCorrupt},
		{"future version", `{"kind":"baton-store","v":9}`, "store: import line 1: contract: unsupported schema version: export version 9, this release reads up to 2", store.ErrSchemaVersion},
		{"not JSON", header + "garbage", "store: import line 2: corrupt object: invalid character 'g' looking for beginning of value", store.ErrCorrupt},
		{"hash mismatch", header + `{"kind":"node","hash":"` + strings.Repeat("a", 64) + `","node":{}}`, "store: import line 2: object " + strings.Repeat("a", 64) + ": corrupt object: content hashes to", store.ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := store.NewMemory().Import(context.Background(), strings.NewReader(tt.in+"\n"))
			if err == nil {
				t.Fatal("imported")
			}
			if got := err.Error()[:min(len(err.Error()), len(tt.want))]; got != tt.want {
				t.Errorf("error mismatch (-want +got):\n%s", cmp.Diff(tt.want, err.Error()))
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
}
