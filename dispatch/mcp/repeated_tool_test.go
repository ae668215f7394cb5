package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestToolListedTwiceListedOnce: a server that lists one tool twice (it
// registered the tool twice, or its pages overlap) gave two tools of one
// name, which a tool box refuses whole, so none of the host's tools
// could be used. The first is kept and the other left out with a
// warning.
func TestToolListedTwiceListedOnce(t *testing.T) {
	url := listingServer(t, `[
		{"name":"echo","description":"first","inputSchema":{"type":"object"}},
		{"name":"other","inputSchema":{"type":"object"}},
		{"name":"echo","description":"second","inputSchema":{"type":"object"}}
	]`)
	var log logBuffer
	src := connect(t, mcp.Server{Name: "twice", URL: url, Logger: log.logger()})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"echo", "other"}, names(tools)); diff != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", diff)
	}
	if len(tools) > 0 && tools[0].Descriptor().Description != "first" {
		t.Errorf("kept %+v, want the first listed", tools[0].Descriptor())
	}
	if _, err := dispatch.NewToolBox(tools...); err != nil {
		t.Errorf("tool box: %v", err)
	}
	if want := `msg="mcp: tool left out" server=twice tool=echo`; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %s:\n%s", want, log.String())
	}
}
