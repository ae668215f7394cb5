package openai

import (
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
		_, p := suite.Serve(t, string(c))
		return p, true
	})
}
