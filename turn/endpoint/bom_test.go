package endpoint

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestStripBOM(t *testing.T) {
	tests := []struct{ contentType, body, want string }{
		{"text/event-stream", "\ufeffdata: a\n\n", "data: a\n\n"},
		{"text/event-stream; charset=utf-8", "data: a\n\n", "data: a\n\n"},
		{"text/event-stream", "d", "d"},
		{"text/event-stream", "", ""},
		{"application/json", "\ufeff{}", "\ufeff{}"},
	}
	for _, tt := range tests {
		next := func(*http.Request) (*http.Response, error) {
			return &http.Response{Header: http.Header{"Content-Type": {tt.contentType}}, Body: io.NopCloser(strings.NewReader(tt.body))}, nil
		}
		resp, err := StripBOM(&http.Request{}, next)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s %q: read %q, %v; want %q", tt.contentType, tt.body, got, err, tt.want)
		}
	}
}
