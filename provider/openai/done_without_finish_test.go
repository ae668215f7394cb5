package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// serveStream answers every request with the event-stream frames given,
// each a data line, and counts the requests.
func serveStream(t *testing.T, frames ...string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var served atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, f := range frames {
			w.Write([]byte("data: " + f + "\n\n"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &served
}

func noSleep(context.Context, time.Duration) error { return nil }

const (
	hiFrame    = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi."},"finish_reason":null}]}`
	callFrame  = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":null}]}`
	usageFrame = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
)

// TestDoneWithoutFinishReason: some compatible servers end a whole reply
// with "data: [DONE]" and never send a finish_reason. Such a reply is
// complete: it is kept, with its stop inferred, and not asked for (and
// billed) again. A stream that ends without [DONE] and without a
// finish_reason was cut and stays a failure.
func TestDoneWithoutFinishReason(t *testing.T) {
	tests := []struct {
		name   string
		frames []string
		want   string // the reply's text and stop, or the failure
		served int32
	}{
		{"text then done", []string{hiFrame, usageFrame, "[DONE]"}, "Hi. end_turn", 1},
		{"tool call then done", []string{callFrame, "[DONE]"}, "get_weather tool_use", 1},
		{"cut without done", []string{hiFrame}, "failed stream", 3},
		{"done with nothing", []string{"[DONE]"}, "failed stream", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, served := serveStream(t, tt.frames...)
			p := New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()))
			got := turn.NewDriver(p, turn.Options{MaxRetries: 2, NoFallback: true, Sleep: noSleep}).Run(context.Background(), basicRequest(), nil)
			var desc string
			switch r := got.(type) {
			case contract.ModelReplied:
				desc = r.Reply.Text() + " " + string(r.Stop)
				if calls := r.Reply.Calls(); len(calls) > 0 {
					desc = calls[0].Name + " " + string(r.Stop)
				}
			case contract.ModelFailed:
				desc = "failed " + string(r.Failure)
			}
			if diff := cmp.Diff(tt.want, strings.TrimSpace(desc)); diff != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", diff)
			}
			if n := served.Load(); n != tt.served {
				t.Errorf("served %d requests, want %d", n, tt.served)
			}
		})
	}
}
