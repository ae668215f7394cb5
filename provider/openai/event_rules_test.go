package openai

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestEventStreamRules: the stream is read as the event-stream format
// says, by what looks for [DONE] and error events as by the SDK. A lone
// CR ends a line; a byte order mark opens the stream and is no part of
// the first field's name, so an error event first is still one; an
// event's type is its last "event" line; an event the stream ends in the
// middle of, [DONE] or error, is never dispatched.
func TestEventStreamRules(t *testing.T) {
	const failFrame = `{"type":"server_error","message":"Overloaded"}`
	tests := []struct {
		name string
		body string
		want string // the reply's text and stop, or the failure
	}{
		{"lone CR line ends", "data: " + hiFrame + "\r\rdata: [DONE]\r\r", "Hi. end_turn"},
		{"an error event after a byte order mark", "\ufeffevent: error\ndata: " + failFrame + "\n\ndata: [DONE]\n\n",
			"failed server"},
		{"an error field after a byte order mark", "\ufefferror: " + failFrame + "\n\ndata: [DONE]\n\n",
			"failed server"},
		{"the last event line names the event", "event: error\nevent: message\ndata: " + hiFrame + "\n\ndata: [DONE]\n\n", "Hi. end_turn"},
		{"done cut before its blank line", "data: " + hiFrame + "\n\ndata: [DONE]\n", "failed stream"},
		{"an error event cut before its blank line", "data: " + hiFrame + "\n\nevent: error\ndata: " + failFrame + "\n", "failed stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := suite.ServeBody(t, "text/event-stream", tt.body)
			var desc string
			switch r := turn.NewDriver(p, turn.Options{NoFallback: true, Sleep: noSleep}).Run(context.Background(), basicRequest(), nil).(type) {
			case contract.ModelReplied:
				desc = r.Reply.Text() + " " + string(r.Stop)
			case contract.ModelFailed:
				desc = "failed " + string(r.Failure)
			}
			if diff := cmp.Diff(tt.want, desc); diff != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
