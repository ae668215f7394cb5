package mcp

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseServer(t *testing.T) {
	tests := []struct {
		spec string
		want Server
		bad  bool
	}{
		{spec: "fs=npx -y @modelcontextprotocol/server-filesystem /tmp", want: Server{Name: "fs", Prefix: "fs_", Command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}}},
		{spec: `ev=node "my dir/index.js"  stdio`, want: Server{Name: "ev", Prefix: "ev_", Command: []string{"node", "my dir/index.js", "stdio"}}},
		{spec: "web=https://example.com/mcp", want: Server{Name: "web", Prefix: "web_", URL: "https://example.com/mcp"}},
		{spec: "no-equals", bad: true},
		{spec: "=node x", bad: true},
		{spec: "x=", bad: true},
		{spec: `x=node "open`, bad: true},
		{spec: "x=http://", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := ParseServer(tt.spec)
			if tt.bad {
				if !errors.Is(err, ErrBadServer) {
					t.Fatalf("error %v, want ErrBadServer", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLocalName(t *testing.T) {
	tests := []struct{ prefix, name, want string }{
		{"", "get-sum", "get-sum"},
		{"fs_", "read_file", "fs_read_file"},
		{"x_", "files.read/all", "x_files_read_all"},
		{"", strings.Repeat("a", 70), strings.Repeat("a", 64)},
	}
	for _, tt := range tests {
		if got := localName(tt.prefix, tt.name); got != tt.want {
			t.Errorf("localName(%q, %q) = %q, want %q", tt.prefix, tt.name, got, tt.want)
		}
	}
}

func TestServerCheck(t *testing.T) {
	tests := []struct {
		srv  Server
		want string
	}{
		{Server{Name: "x", Command: []string{"x"}, MaxRestarts: -1}, ""},
		{Server{Name: "x", Command: []string{"x"}, RestartWindow: -time.Second}, `mcp: bad server "x": negative restart window`},
		{Server{Name: "x", Command: []string{"x"}, ListTimeout: -time.Second}, `mcp: bad server "x": negative timeout`},
	}
	for _, tt := range tests {
		got := ""
		if err := tt.srv.check(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("check(%+v) = %q, want %q", tt.srv, got, tt.want)
		}
	}
}
