package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestLargeResult: a result larger than the SDK's 16 MiB default frame
// (a big file read, an image) reaches the scheduler, which caps it, and
// the connection stays up for the next call, over stdio and over HTTP.
func TestLargeResult(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "big"}, nil)
	addBig(server)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer ts.Close()
	servers := []mcp.Server{
		{Name: "stdio", Command: stdioServer(t)},
		{Name: "http", URL: ts.URL},
	}
	const size = 17 << 20
	for _, srv := range servers {
		t.Run(srv.Name, func(t *testing.T) {
			tools, err := connect(t, srv).Tools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			o := call(t, tools, dispatch.Options{OutputCap: 1000, DefaultTimeout: settleWithin}, "big", `{"n":`+strconv.Itoa(size)+`}`)
			if o.Outcome.IsError || !o.Outcome.Truncated || !strings.HasPrefix(o.Outcome.Content, "xxx") {
				t.Errorf("large result: %.300s (error %v, truncated %v)", o.Outcome.Content, o.Outcome.IsError, o.Outcome.Truncated)
			}
			if o := call(t, tools, dispatch.Options{}, "big", `{"n":3}`); o.Outcome.Content != "xxx" {
				t.Errorf("the call after: %+v", o.Outcome)
			}
		})
	}
}
