package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/contract"
)

var update = flag.Bool("update", false, "rewrite golden files")

// richRequest covers every block kind and role the mapping knows.
func richRequest() contract.ModelRequest {
	req := basicRequest()
	req.System = "You are terse."
	req.Thinking = contract.ThinkingMedium
	req.Tools = append(req.Tools, contract.ToolDescriptor{Name: "get_time"})
	req.History = contract.HistoryOf(
		contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{
			contract.TextBlock("What is in this picture, and the weather in Paris and Tokyo?"),
			{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "https://example.com/cat.png", MediaType: "image/png"}},
			{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "data:image/png;base64,iVBORw0KGgo="}},
		}},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
			{Kind: contract.BlockThinking, Text: "Two lookups.", Signature: "sig-1"},
			contract.TextBlock("A cat. Checking the weather."),
			contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}),
			contract.CallBlock(contract.ToolCall{ID: "call_2", Name: "get_weather", Arguments: `{"city": "Tokyo"`}),
		}},
		contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{
			contract.ResultBlock(contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "18C, cloudy"}),
			contract.ResultBlock(contract.ToolResult{CallID: "call_2", Name: "get_weather", Content: "malformed arguments", IsError: true}),
		}},
		contract.Turn{Role: contract.RoleUser, Mark: contract.MarkSteer, Blocks: []contract.Block{contract.TextBlock("Only Paris, please.")}},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{{Kind: contract.BlockThinking, Text: "Only thinking."}}},
		contract.UserText("Thanks."),
	)
	return req
}

// TestRequestGolden checks the exact JSON the provider puts on the wire.
func TestRequestGolden(t *testing.T) {
	srv := serveTranscript(t, filepath.Join("testdata", "text.sse"))
	p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()), WithAPIKey("sk-ant-test"))
	if _, err := collect(context.Background(), p, richRequest()); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := json.Indent(&got, srv.request(0), "", "  "); err != nil {
		t.Fatalf("request is not JSON: %v\n%s", err, srv.request(0))
	}
	got.WriteByte('\n')
	golden := filepath.Join("testdata", "request.golden.json")
	if *update {
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
	if h := srv.headers[0].Get("X-Api-Key"); h != "sk-ant-test" {
		t.Errorf("x-api-key = %q, want the key", h)
	}
}

func TestNoKeyNoAuthorization(t *testing.T) {
	srv := serveTranscript(t, filepath.Join("testdata", "text.sse"))
	p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()))
	if _, err := collect(context.Background(), p, basicRequest()); err != nil {
		t.Fatal(err)
	}
	if h := srv.headers[0].Get("X-Api-Key"); h != "" {
		t.Errorf("x-api-key = %q, want none without a key", h)
	}
}

func TestNewFromEnv(t *testing.T) {
	srv := serveTranscript(t, filepath.Join("testdata", "text.sse"))
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-env")
	p := NewFromEnv(WithHTTPClient(srv.Client()))
	got, err := collect(context.Background(), p, basicRequest())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(helloChunks) {
		t.Errorf("got %d chunks, want %d", len(got), len(helloChunks))
	}
	if h := srv.headers[0].Get("X-Api-Key"); h != "sk-ant-env" {
		t.Errorf("x-api-key = %q, want the key from the environment", h)
	}
}

func TestBadRequestNeverSent(t *testing.T) {
	tests := []struct {
		name string
		edit func(*contract.ModelRequest)
	}{
		{"no model", func(r *contract.ModelRequest) { r.Model = "" }},
		{"bad schema", func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`[1,2`) }},
		{"schema not an object", func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`{"type":"string"}`) }},
		{"image data not base64", func(r *contract.ModelRequest) {
			r.History = r.History.Append(contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "data:text/plain,hi"}}}})
		}},
		{"bad role", func(r *contract.ModelRequest) {
			r.History = r.History.Append(contract.Turn{Role: "narrator", Blocks: []contract.Block{contract.TextBlock("x")}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serveTranscript(t, filepath.Join("testdata", "text.sse"))
			p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()))
			req := basicRequest()
			tt.edit(&req)
			_, err := collect(context.Background(), p, req)
			pe := failureOf(t, err)
			if pe.Failure != contract.FailInvalidRequest || !errors.Is(err, ErrBadRequest) {
				t.Errorf("got %v, want invalid_request wrapping ErrBadRequest", err)
			}
			if srv.served != 0 {
				t.Errorf("a bad request reached the server")
			}
		})
	}
}
