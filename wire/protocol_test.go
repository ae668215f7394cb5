package wire

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A client that asks for a protocol by a name the handler does not know
// is told which names it knows, and that NDJSON is asked for with the
// Accept header rather than by name.
func TestUnknownProtocolNamesTheChoices(t *testing.T) {
	e := newEnv(t, weatherScript)
	for _, name := range []string{"ndjson", "agui"} {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, e.srv.URL+"/?protocol="+name, strings.NewReader(runBody("t1", "hi")))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := `wire: protocol "` + name + `" is neither "ag-ui" nor "ai-sdk" (for NDJSON, send Accept: application/x-ndjson)`
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("protocol %q: status %d, want 400", name, resp.StatusCode)
		}
		if diff := cmp.Diff(want, strings.TrimSpace(string(body))); diff != "" {
			t.Errorf("protocol %q: body mismatch (-want +got):\n%s", name, diff)
		}
	}
}
