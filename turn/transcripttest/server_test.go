package transcripttest

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, ctx context.Context, s *Server, body string) (*http.Response, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1/x", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Test", body)
	resp, err := s.Client().Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

// TestServerPlaysInOrder: responses come in order, the last repeats, and
// each request's body and headers are kept.
func TestServerPlaysInOrder(t *testing.T) {
	s := Serve(t, []byte("### HTTP 500\n\nfirst\n### HTTP 200\nX-Kind: ok\n\nsecond\n"))
	want := []struct {
		status int
		body   string
	}{{500, "first\n"}, {200, "second\n"}, {200, "second\n"}}
	for i, w := range want {
		resp, body, err := get(t, context.Background(), s, string(rune('a'+i)))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != w.status || body != w.body {
			t.Errorf("request %d: got %d %q, want %d %q", i, resp.StatusCode, body, w.status, w.body)
		}
	}
	if s.Served() != 3 || string(s.Request(1)) != "b" || s.Header(2).Get("X-Test") != "c" {
		t.Errorf("served %d, request 1 %q, header 2 %q", s.Served(), s.Request(1), s.Header(2).Get("X-Test"))
	}
	if s.Request(3) != nil || s.Header(-1) != nil {
		t.Error("out-of-range requests must be nil")
	}
}

func TestServerCuts(t *testing.T) {
	s := Serve(t, []byte("### HTTP 200\nX-Replay: cut\n\ndata: a\n\ndata: b\n"))
	resp, body, err := get(t, context.Background(), s, "")
	if err == nil {
		t.Fatalf("a cut body read whole: %q", body)
	}
	if resp == nil || resp.Header.Get("X-Replay") != "" {
		t.Errorf("the X-Replay pseudo-header must not be sent")
	}
}

func TestServerHolds(t *testing.T) {
	s := Serve(t, []byte("### HTTP 200\nX-Replay: hold\n\ndata: a\n\n"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, _, err := get(t, ctx, s, "")
	if err == nil || ctx.Err() == nil {
		t.Errorf("a held body ended before the client gave up: %v", err)
	}
}
