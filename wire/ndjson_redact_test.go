package wire

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// A model failure reaches an NDJSON client (Accept: application/x-ndjson)
// without the upstream URL or the key its error text held, as it reaches
// AG-UI and AI SDK clients (TestErrorsToClientsHoldNoURLsOrKeys).
func TestNDJSONErrorsHoldNoURLsOrKeys(t *testing.T) {
	leak := `Post "https://llm.internal.example/v1/chat?key=sk-live-abcdef123456": connection refused (Authorization: Bearer sk-live-abcdef123456)`
	failing := func() []func(context.Context) ([]turn.Chunk, error) {
		return []func(context.Context) ([]turn.Chunk, error){func(context.Context) ([]turn.Chunk, error) {
			return nil, &turn.ProviderError{Failure: contract.FailNetwork, Message: "openai: request failed", Err: errors.New(leak)}
		}}
	}
	e := newEnv(t, failing)
	code, stream, _ := e.do("POST", "", runBody("t1", "hi"), map[string]string{"Content-Type": "application/json", "Accept": "application/x-ndjson"})
	if code != http.StatusOK || !strings.Contains(stream, "request failed") {
		t.Fatalf("%d %s", code, stream)
	}
	for _, secret := range []string{"llm.internal.example", "sk-live"} {
		if strings.Contains(stream, secret) {
			t.Errorf("the NDJSON stream shows %q:\n%s", secret, stream)
		}
	}
}
