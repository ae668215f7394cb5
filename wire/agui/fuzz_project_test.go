package agui

import (
	"strings"
	"testing"

	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// FuzzProjectTurn feeds the projector a model call streamed in random
// pieces (a prefix of the turn's text, maybe after a retried attempt that
// streamed something else), then the stored turn: the text a client
// assembles from the messages of the last attempt equals the stored
// turn's text, and every message it opened is closed.
func FuzzProjectTurn(f *testing.F) {
	f.Add("Hello, world", []byte{3, 4}, uint8(7), "Hel")
	f.Add("", []byte{}, uint8(0), "")
	f.Add("abc", []byte{1, 1, 1}, uint8(3), "")
	f.Fuzz(func(t *testing.T, final string, splits []byte, cut uint8, broken string) {
		before, after := wt.StreamedTurn(final, splits, int(cut), broken)
		p := NewProjector("t")
		for _, ev := range before {
			p.Project(ev)
		}
		var got strings.Builder
		open := map[string]bool{}
		for _, ev := range after {
			for _, e := range p.Project(ev) {
				switch e.Type {
				case TextMessageStart:
					open[e.MessageID] = true
				case TextMessageEnd:
					delete(open, e.MessageID)
				case TextMessageContent:
					if !open[e.MessageID] {
						t.Fatalf("text for %s, which is not open", e.MessageID)
					}
					got.WriteString(e.Delta)
				}
			}
		}
		if got.String() != final {
			t.Fatalf("client assembled %q, the stored turn says %q", got.String(), final)
		}
		if len(open) > 0 {
			t.Fatalf("left open: %v", open)
		}
	})
}
