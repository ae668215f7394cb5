package anthropic

import (
	"context"
	"errors"
	"testing"

	"go.uber.org/goleak"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// collect drains one stream and returns its chunks and its error.
func collect(ctx context.Context, p turn.Provider, req contract.ModelRequest) ([]turn.Chunk, error) {
	var out []turn.Chunk
	for c, err := range p.Stream(ctx, req) {
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}

func failureOf(t *testing.T, err error) *turn.ProviderError {
	t.Helper()
	var pe *turn.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *turn.ProviderError", err, err)
	}
	return pe
}

func basicRequest() contract.ModelRequest {
	return contract.ModelRequest{
		Model:   "claude-sonnet-4-5",
		History: contract.HistoryOf(contract.UserText("What is the weather in Paris?")),
		Tools: []contract.ToolDescriptor{{
			Name:        "get_weather",
			Description: "Current weather for a city.",
			InputSchema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		}},
		MaxOutputTokens: 256,
		Turn:            1,
	}
}
