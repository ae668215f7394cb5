package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestCompletionReasoning: servers that answer with a whole completion
// (the fallback when streaming fails) put the reasoning beside content,
// as reasoning_content (DeepSeek, vLLM) or reasoning (Ollama,
// OpenRouter), as they do in a stream. It is the reply's thinking there
// too.
func TestCompletionReasoning(t *testing.T) {
	for _, key := range []string{"reasoning_content", "reasoning"} {
		var c sdk.ChatCompletion
		body := `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Done.","` + key + `":"Let me think."}}]}`
		if err := json.Unmarshal([]byte(body), &c); err != nil {
			t.Fatal(err)
		}
		want := []turn.Chunk{
			said("m", "c"),
			{Kind: turn.ChunkThinking, Text: "Let me think."},
			{Kind: turn.ChunkText, Text: "Done."},
			{Kind: turn.ChunkStop, Stop: contract.StopEndTurn},
		}
		if diff := cmp.Diff(want, completionChunks(&c)); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", key, diff)
		}
	}
}
