package mcp_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/dispatch/mcp"
)

// TestToolTheSDKLeavesOutIsLogged: the SDK leaves out of a listing a
// tool it finds invalid (an x-mcp-header annotation on a property that
// is not of a primitive type) and says so only to its own logger; the
// line reaches Server.Logger, naming the server, so that a tool missing
// from the model's list is explained as one CheckTool refuses is.
func TestToolTheSDKLeavesOutIsLogged(t *testing.T) {
	var log logBuffer
	src := connect(t, mcp.Server{Name: "raw", Command: rawStdioServer(t, filepath.Join(t.TempDir(), "read.log"), false), Logger: log.logger()})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"stall"}, names(tools)); diff != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", diff)
	}
	var line string
	for l := range strings.Lines(log.String()) {
		if strings.Contains(l, "misheaded") {
			line = l
		}
	}
	if line == "" || !strings.Contains(line, "server=raw") {
		t.Errorf("no log line names the server and the tool left out:\n%s", log.String())
	}
}
