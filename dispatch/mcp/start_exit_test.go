package mcp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/dispatch/mcp"
)

// TestServerThatExitsAtStartNamesItsCommand: a command that exits before
// it answers the handshake fails Connect with an error that names the
// program that ended (not its arguments, which may hold credentials) and
// how it ended, an exit status of 0 included, so that a user with
// several servers sees which command to fix and that it did not crash
// but quit.
func TestServerThatExitsAtStartNamesItsCommand(t *testing.T) {
	tests := []struct {
		name    string
		command []string
		want    []string
	}{
		{"fails", []string{"sh", "-c", "echo 'missing API key' >&2; exit 3", "--token=s3cret"}, []string{`command "sh"`, "exit status 3", "missing API key"}},
		{"quits", []string{"true", "--token=s3cret"}, []string{`command "true"`, "exit status 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := mcp.Connect(ctx, mcp.Server{Name: "bad", Command: tt.command})
			if err == nil {
				t.Fatal("Connect succeeded")
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error %q quotes the command's arguments", err)
			}
		})
	}
}
