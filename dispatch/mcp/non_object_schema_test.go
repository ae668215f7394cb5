package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/dispatch/mcp"
)

// listingServer serves over streamable HTTP, as plain JSON answers, a
// server whose tools/list answers tools as written: unlike the SDK's
// servers it can list what the specification does not allow.
func listingServer(t *testing.T, tools string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := json.RawMessage(`{}`)
		switch req.Method {
		case "initialize":
			result = json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"listing","version":"1"}}`)
		case "tools/list":
			result = json.RawMessage(`{"tools":` + tools + `}`)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestNonObjectSchemaLeftOut: a tool's arguments are an object, and both
// OpenAI and Anthropic refuse every request that offers a tool whose
// input schema is of another type, so one such tool of a server would
// fail every model call of the agent it joined. It is left out with a
// warning; a schema without a type, or whose type list holds object,
// is kept.
func TestNonObjectSchemaLeftOut(t *testing.T) {
	url := listingServer(t, `[
		{"name":"text","inputSchema":{"type":"string"}},
		{"name":"list","inputSchema":{"type":"array","items":{"type":"string"}}},
		{"name":"bare","inputSchema":true},
		{"name":"untyped","inputSchema":{"properties":{"a":{"type":"string"}}}},
		{"name":"nullable","inputSchema":{"type":["object","null"],"properties":{}}},
		{"name":"plain","inputSchema":{"type":"object"}}
	]`)
	var log logBuffer
	src := connect(t, mcp.Server{Name: "listing", URL: url, Logger: log.logger()})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"untyped", "nullable", "plain"}, names(tools)); diff != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", diff)
	}
	for _, name := range []string{"text", "list", "bare"} {
		if want := `msg="mcp: tool left out" server=listing tool=` + name + ` `; !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, log.String())
		}
	}
}
