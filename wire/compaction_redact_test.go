package wire

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestCompactionFallbackHoldsNoURLsOrKeys: a summary request that fails
// with the upstream URL, its credentials and a key in the error falls
// back to dropping tool outputs, and the compaction event that says so
// reaches AG-UI, AI SDK and NDJSON clients without them.
func TestCompactionFallbackHoldsNoURLsOrKeys(t *testing.T) {
	leak := `Post "https://admin:hunter2@llm.internal.example/v1/chat": connection refused (x-api-key: sk-live-abcdef123456)`
	scripts := func() []func(context.Context) ([]turn.Chunk, error) {
		return []func(context.Context) ([]turn.Chunk, error){
			callsTool("call_1", "get_weather", `{"city":"Paris"}`),
			func(context.Context) ([]turn.Chunk, error) {
				return nil, &turn.ProviderError{Failure: contract.FailNetwork, Message: "openai: request failed", Err: errors.New(leak)}
			},
			reply(turn.Chunk{Kind: turn.ChunkText, Text: "It is 18C."}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
		}
	}
	e := &env{t: t, agents: map[string]*conductor.Agent{}, scripts: scripts}
	e.cfg = contract.AgentConfig{Model: "m", Compaction: contract.CompactionPolicy{MaxMessages: 3, KeepRecent: 1}}
	startEnv(e)
	streams := map[string]func() (int, string){
		"ag-ui": func() (int, string) {
			code, s, _ := e.do("POST", "", runBody("t-agui", "hi"), map[string]string{"Content-Type": "application/json"})
			return code, s
		},
		"ai-sdk": func() (int, string) {
			code, s, _ := e.do("POST", "?protocol=ai-sdk", chatBody("c-aisdk", "hi"), map[string]string{"Content-Type": "application/json"})
			return code, s
		},
		"ndjson": func() (int, string) {
			code, s, _ := e.do("POST", "", runBody("t-ndjson", "hi"), map[string]string{"Content-Type": "application/json", "Accept": "application/x-ndjson"})
			return code, s
		},
	}
	for name, post := range streams {
		t.Run(name, func(t *testing.T) {
			code, stream := post()
			if code != http.StatusOK || !strings.Contains(stream, "fallback: dropped old tool outputs") || !strings.Contains(stream, "connection refused") {
				t.Fatalf("want a 200 stream with the fallback compaction event; got %d:\n%s", code, stream)
			}
			for _, secret := range []string{"llm.internal.example", "hunter2", "sk-live"} {
				if strings.Contains(stream, secret) {
					t.Errorf("the stream shows %q:\n%s", secret, stream)
				}
			}
		})
	}
}
