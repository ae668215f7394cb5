package anthropic

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// suite runs the checks shared with the other HTTP providers against
// this one and the transcripts in testdata.
var suite = transcripttest.Suite{
	Dial: func(url string, c *http.Client) turn.Provider {
		return New(endpoint.BaseURL(url), endpoint.HTTPClient(c))
	},
	Request: basicRequest,
	Dir:     "testdata",
}

func basicRequest() contract.ModelRequest { return transcripttest.WeatherRequest("claude-sonnet-4-5") }

// recordedTextEvents is the event stream of testdata/text.sse, a recorded
// text reply, without the status and headers before it.
func recordedTextEvents(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("testdata/text.sse")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(raw), "\n\n")
	return body
}
