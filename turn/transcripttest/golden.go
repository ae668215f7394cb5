package transcripttest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/contract"
)

// Golden sends req through the provider against the text transcript and
// compares the request body, indented, with the golden file <Dir>/name;
// update rewrites the file first. It returns the server so that the
// caller can check the headers sent.
func (s Suite) Golden(t *testing.T, req contract.ModelRequest, name string, update bool) *Server {
	t.Helper()
	srv, p := s.Serve(t, "text")
	if _, err := Collect(context.Background(), p, req); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := json.Indent(&got, srv.Request(0), "", "  "); err != nil {
		t.Fatalf("request is not JSON: %v\n%s", err, srv.Request(0))
	}
	got.WriteByte('\n')
	golden := filepath.Join(s.Dir, name)
	if update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got.Bytes()) {
		t.Errorf("request mismatch; run go test -update and review the diff\n--- want\n%s\n--- got\n%s", want, got.Bytes())
	}
	return srv
}
