package anthropic

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/turn"
)

// TestStreamStartingWithBOM: the event-stream format lets a stream open
// with a byte order mark, which some gateways send. The SDK read it as
// part of the first field's name and dropped message_start, and with it
// the prompt's token count.
func TestStreamStartingWithBOM(t *testing.T) {
	body := recordedTextEvents(t)
	_, p := suite.ServeBody(t, "text/event-stream", "\ufeff"+body)
	var got []turn.Chunk
	for c, err := range p.Stream(context.Background(), basicRequest()) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	if diff := cmp.Diff(helloChunks, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
