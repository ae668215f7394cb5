package builtin

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// TestTrailingArgumentsAreRefused: arguments that are one object and
// then more are not one object, and the approval keys of such a call do
// not decode (they key it by its exact text): the shell and http_get
// refuse it rather than run what its first object says.
func TestTrailingArgumentsAreRefused(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()
	root := t.TempDir()
	_, tools := open(t, Options{Root: root, AllowShell: true, AllowHTTP: true, HTTPClient: client})
	tests := []struct {
		tool, args string
		ran        func() bool
	}{
		{"shell", `{"command":"touch ran"} {"command":"true"}`, fileExists(filepath.Join(root, "ran"))},
		{"shell", `{"command":"touch ran2"}x`, fileExists(filepath.Join(root, "ran2"))},
		{"http_get", `{"url":"` + srv.URL + `"}]`, func() bool { return hits.Load() > 0 }},
	}
	for _, tt := range tests {
		if _, err := tools[tt.tool].Call(context.Background(), json.RawMessage(tt.args)); err == nil {
			t.Errorf("%s took %s", tt.tool, tt.args)
		}
		if tt.ran() {
			t.Errorf("%s ran the first object of %s", tt.tool, tt.args)
		}
	}
}

func fileExists(path string) func() bool {
	return func() bool {
		_, err := os.Stat(path)
		return err == nil
	}
}
