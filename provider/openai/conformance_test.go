package openai

import (
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/turntest"
)

// TestConformance runs the provider suite over the recorded transcripts.
// Chat Completions carries no thinking signatures, so that case is out.
func TestConformance(t *testing.T) {
	turntest.Run(t, func(t *testing.T, c turntest.Case) (turn.Provider, bool) {
		if c == turntest.CaseThinking {
			return nil, false
		}
		srv := serveTranscript(t, filepath.Join("testdata", string(c)+".sse"))
		return New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client())), true
	})
}
