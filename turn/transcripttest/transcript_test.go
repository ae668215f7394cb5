package transcripttest

import (
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	data := "### HTTP 429\nRetry-After: 2\n\n{}\n### HTTP 200\nContent-Type: text/event-stream\nX-Replay: hold\n\ndata: a\n\n"
	want := []Response{
		{Status: 429, Header: http.Header{"Retry-After": {"2"}}, Body: []byte("{}\n")},
		{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: []byte("data: a\n\n"), Mode: ModeHold},
	}
	got, err := Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, data string }{
		{"empty", ""},
		{"no marker", "HTTP 200\n\nbody"},
		{"status not a number", "### HTTP ok\n\nbody"},
		{"status out of range", "### HTTP 42\n\nbody"},
		{"header without colon", "### HTTP 200\nContent-Type text/plain\n\nbody"},
		{"unknown mode", "### HTTP 200\nX-Replay: sometimes\n\nbody"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse([]byte(tt.data)); !errors.Is(err, ErrTranscript) {
				t.Errorf("Parse(%q) = %v, want ErrTranscript", tt.data, err)
			}
		})
	}
}
