package transcripttest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/batonrt/baton/contract"
)

// Sent sends req through the provider against the text transcript and
// returns the top-level fields of the request body named by fields,
// those the body leaves out left out: what a mapping put on the wire,
// for tables of request options.
func (s Suite) Sent(t *testing.T, req contract.ModelRequest, fields ...string) map[string]any {
	t.Helper()
	srv, p := s.Serve(t, "text")
	if _, err := Collect(context.Background(), p, req); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(srv.Request(0), &body); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for _, k := range fields {
		if v, ok := body[k]; ok {
			out[k] = v
		}
	}
	return out
}
