package builtin

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestShellOutputCutsAtRuneBoundary: output past the cap is cut before a
// character the cap falls inside, whether the character came in one
// write or across two.
func TestShellOutputCutsAtRuneBoundary(t *testing.T) {
	tests := []struct {
		name    string
		writes  []string
		max     int
		want    string
		dropped int
	}{
		{"under", []string{"aé"}, 3, "aé", 0},
		{"inside a character in one write", []string{"aéé"}, 4, "aé", 2},
		{"inside a four-byte character", []string{"ab😀c"}, 3, "ab", 5},
		{"a character across two writes", []string{"ab\xf0\x9f", "\x98\x80c"}, 5, "ab", 5},
		{"bytes that are not UTF-8", []string{"\x80\x80\x80\x80"}, 3, "\x80\x80\x80", 1},
		{"nothing after the cut", []string{"abc", "d", "é"}, 3, "abc", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &capWriter{max: tt.max}
			for _, s := range tt.writes {
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", s, n, err)
				}
			}
			if diff := cmp.Diff(tt.want, w.buf.String()); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
			if w.dropped != tt.dropped {
				t.Errorf("dropped %d bytes, want %d", w.dropped, tt.dropped)
			}
		})
	}
}

// TestHTTPGetCutsAtRuneBoundary: a body longer than MaxHTTP is cut
// before a character the limit falls inside.
func TestHTTPGetCutsAtRuneBoundary(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ab😀c"))
	}))
	defer srv.Close()
	client := &http.Client{Timeout: 5 * time.Second}
	defer client.CloseIdleConnections()
	_, tools := open(t, Options{AllowHTTP: true, HTTPClient: client, MaxHTTP: 4})
	args, _ := json.Marshal(map[string]string{"url": srv.URL + "/"})
	out, err := tools["http_get"].Call(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(out.Content, "\n\n")
	if want := "ab\n[truncated at 2 bytes]"; body != want || !out.Truncated {
		t.Errorf("body %q (truncated %v), want %q", body, out.Truncated, want)
	}
}
