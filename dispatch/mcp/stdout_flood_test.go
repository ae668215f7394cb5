package mcp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestStdoutFloodIsNotLoggedLineByLine: a server that prints its debug
// output to stdout, a line for each thing it does, would have every
// line warned of, flooding the host's log (baton's stderr) for as long
// as it runs. The first few are warned of, then one line says the rest
// are skipped silently; the call still gets its answer.
func TestStdoutFloodIsNotLoggedLineByLine(t *testing.T) {
	var logs logBuffer
	tools := everything(t, mcp.Server{Name: "noisy", Command: noisyStdioServer(t), Timeout: 20 * time.Second, Logger: logs.logger()})
	got := call(t, tools, dispatch.Options{}, "flood", `{"n":500}`).Outcome
	if diff := cmp.Diff(contract.ToolOutcome{Content: "flooded"}, got); diff != "" {
		t.Fatalf("flood mismatch (-want +got):\n%s", diff)
	}
	warned := strings.Count(logs.String(), "DEBUG flood: line")
	if warned == 0 || warned > 20 {
		t.Errorf("%d of the server's 500 lines warned of, want a few", warned)
	}
	if !strings.Contains(logs.String(), "without a warning") {
		t.Errorf("no line says the rest are skipped silently; log:\n%s", logs.String())
	}
}
