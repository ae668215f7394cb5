package openai

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestStreamStartingWithBOM: the event-stream format lets a stream open
// with a byte order mark, which some gateways send. The SDK read it as
// part of the first field's name and dropped the first chunk's text.
func TestStreamStartingWithBOM(t *testing.T) {
	const body = "\ufeffdata: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hello\"}}]}\n\n" +
		"data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" +
		"data: [DONE]\n\n"
	_, p := suite.ServeBody(t, "text/event-stream", body)
	var got []turn.Chunk
	for c, err := range p.Stream(context.Background(), basicRequest()) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	if diff := cmp.Diff([]turn.Chunk{said("", "c1"), text("Hello"), stop(contract.StopEndTurn)}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
