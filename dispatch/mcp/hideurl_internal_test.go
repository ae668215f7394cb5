package mcp

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestURLHider(t *testing.T) {
	tests := []struct{ url, err, want string }{
		{"https://mcp.example.test/s/k3y/mcp", `Post "https://mcp.example.test/s/k3y/mcp": EOF`, `Post "https://mcp.example.test/…": EOF`},
		{"https://mcp.example.test/mcp?api_key=k3y", `Post "https://mcp.example.test/mcp?api_key=k3y": EOF`, `Post "https://mcp.example.test/…": EOF`},
		{"https://bob:k3y@mcp.example.test/mcp", `Post "https://bob:***@mcp.example.test/mcp": EOF`, `Post "https://mcp.example.test/…": EOF`},
		{"http://127.0.0.1:8080", `Post "http://127.0.0.1:8080": refused`, `Post "http://127.0.0.1:8080": refused`},
		{"http://127.0.0.1:8080/", `Post "http://127.0.0.1:8080/": refused`, `Post "http://127.0.0.1:8080": refused`},
	}
	for _, tt := range tests {
		err := fmt.Errorf("mcp: %s: %w", tt.err, context.DeadlineExceeded)
		got := newURLHider(tt.url).hide(err)
		if want := "mcp: " + tt.want + ": context deadline exceeded"; got.Error() != want {
			t.Errorf("%s: %q, want %q", tt.url, got, want)
		}
		if !errors.Is(got, context.DeadlineExceeded) {
			t.Errorf("%s: the error no longer wraps its cause", tt.url)
		}
	}
}
