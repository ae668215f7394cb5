package builtin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadFileCutsAtRuneBoundary: a file longer than MaxRead is cut
// before a character the limit falls inside, never through it, and the
// note says how many bytes are shown.
func TestReadFileCutsAtRuneBoundary(t *testing.T) {
	tests := []struct {
		name    string
		content string
		max     int64
		want    string
	}{
		{"under", "aé", 3, "aé"},
		{"at a boundary", "aéé", 3, "aé\n[truncated at 3 bytes]"},
		{"inside a two-byte character", "aéé", 4, "aé\n[truncated at 3 bytes]"},
		{"inside a four-byte character", "ab😀c", 3, "ab\n[truncated at 2 bytes]"},
		{"at the last byte of a four-byte character", "ab😀c", 5, "ab\n[truncated at 2 bytes]"},
		{"bytes that are not UTF-8", "\x80\x80\x80\x80\x80", 3, "\x80\x80\x80\n[truncated at 3 bytes]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, tools := open(t, Options{Root: root, MaxRead: tt.max})
			out, err := call(t, tools["read_file"], map[string]string{"path": "f.txt"})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, out.Content); diff != "" {
				t.Errorf("content mismatch (-want +got):\n%s", diff)
			}
			if cut := int64(len(tt.content)) > tt.max; out.Truncated != cut {
				t.Errorf("Truncated = %v, want %v: the outcome must say the file was cut", out.Truncated, cut)
			}
		})
	}
}
