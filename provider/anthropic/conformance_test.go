package anthropic

import (
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/turntest"
)

// TestConformance runs the provider suite over the recorded transcripts.
func TestConformance(t *testing.T) {
	turntest.Run(t, func(t *testing.T, c turntest.Case) (turn.Provider, bool) {
		srv := serveTranscript(t, filepath.Join("testdata", string(c)+".sse"))
		return New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client())), true
	})
}
