package openai

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkStream decodes a recorded 1000-delta reply served over loopback
// and reports chunks per second.
func BenchmarkStream(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("### HTTP 200\nContent-Type: text/event-stream\n\n")
	const frame = `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%q},"logprobs":null,"finish_reason":%s}],"usage":null}` + "\n\n"
	for i := range 1000 {
		fmt.Fprintf(&sb, frame, fmt.Sprintf("word%d ", i), "null")
	}
	fmt.Fprintf(&sb, frame, "", `"stop"`)
	sb.WriteString(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1000,"total_tokens":1010}}` + "\n\ndata: [DONE]\n\n")
	suite.Bench(b, []byte(sb.String()))
}
