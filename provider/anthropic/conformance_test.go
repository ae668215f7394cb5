package anthropic

import (
	"testing"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/turntest"
)

// TestConformance runs the provider suite over the recorded transcripts.
func TestConformance(t *testing.T) {
	turntest.Run(t, func(t *testing.T, c turntest.Case) (turn.Provider, bool) {
		_, p := suite.Serve(t, string(c))
		return p, true
	})
}
