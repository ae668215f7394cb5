package transcripttest

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// Collect drains one stream and returns its chunks and its error.
func Collect(ctx context.Context, p turn.Provider, req contract.ModelRequest) ([]turn.Chunk, error) {
	var out []turn.Chunk
	for c, err := range p.Stream(ctx, req) {
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}

// FailureOf returns err as a *turn.ProviderError, failing the test if it
// is not one.
func FailureOf(t testing.TB, err error) *turn.ProviderError {
	t.Helper()
	var pe *turn.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *turn.ProviderError", err, err)
	}
	return pe
}
