package ledger

import (
	"fmt"
	"slices"
	"testing"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// TestHubDeliversInOrderProperty: a subscriber released at random while
// events are published receives exactly what was published, in order,
// once each merged delta is expanded into the deltas it stands for and
// each lag notice into the events it counts, which must be ones a
// subscriber may lose: the root run's events that neither stream text,
// end a turn or a run, nor ask the host anything.
func TestHubDeliversInOrderProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := NewHub(Options{Buffer: rapid.IntRange(1, 5).Draw(t, "buffer")})
		tokens := make(chan struct{}, 1<<16)
		free := make(chan struct{})
		var c collector
		h.Subscribe(func(e contract.RunEvent) {
			select {
			case <-tokens:
			case <-free:
			}
			c.fn(e)
		})
		var published []contract.RunEvent
		var seq uint64 = 1
		var delta uint32
		kinds := []contract.EventKind{
			contract.EvTextDelta, contract.EvThinkingDelta, contract.EvToolCallDelta,
			contract.EvToolStarted, contract.EvToolResult, contract.EvCompaction,
			contract.EvTurnCompleted, contract.EvApprovalRequested, contract.EvModelRetry, contract.EvRunSettled,
		}
		t.Repeat(map[string]func(*rapid.T){
			"publish": func(t *rapid.T) {
				ev := contract.RunEvent{SessionID: "s", RunID: "r", Kind: rapid.SampledFrom(kinds).Draw(t, "kind")}
				if rapid.IntRange(0, 4).Draw(t, "subflow") == 0 {
					ev.Subflow = []string{"call1"}
				}
				if isDelta(ev.Kind) {
					delta++
					ev.Seq, ev.Delta = seq, delta
					ev.Index = rapid.IntRange(0, 1).Draw(t, "index")
					ev.Text = rapid.StringMatching(`[a-z]{1,3}`).Draw(t, "text")
				} else {
					seq++
					ev.Seq = seq
				}
				published = append(published, ev)
				h.Publish(&ev)
			},
			"release": func(t *rapid.T) {
				for range rapid.IntRange(1, 4).Draw(t, "n") {
					tokens <- struct{}{}
				}
			},
		})
		close(free)
		h.Close()
		if err := expand(published, c.got); err != nil {
			t.Fatalf("%v\npublished %v\ngot %v", err, published, c.got)
		}
	})
}

// expand matches got against published: see TestHubDeliversInOrderProperty.
func expand(published, got []contract.RunEvent) error {
	i := 0
	for n, g := range got {
		switch {
		case g.Kind == contract.EvLag:
			for range g.Missed {
				if i == len(published) {
					return fmt.Errorf("event %d: lag counts %d events past the end", n, g.Missed)
				}
				p := published[i]
				if isDelta(p.Kind) || ends(p.Kind) || len(p.Subflow) > 0 {
					return fmt.Errorf("event %d: lag counts %v, which must not be lost", n, p)
				}
				i++
			}
			if g.Missed == 0 || published[i-1].Seq != g.Seq {
				return fmt.Errorf("event %d: lag %+v does not name the newest missed", n, g)
			}
		case isDelta(g.Kind):
			text := ""
			for i < len(published) && (text == "" || continues(&published[i-1], &published[i])) && text != g.Text {
				if !continues(&published[i], &g) && !sameDelta(published[i], g) {
					return fmt.Errorf("event %d: delta %+v, published %+v", n, g, published[i])
				}
				text += published[i].Text
				i++
			}
			if text != g.Text || published[i-1].Delta != g.Delta {
				return fmt.Errorf("event %d: delta %+v stands for %q up to delta %d", n, g, text, published[i-1].Delta)
			}
		default:
			if i == len(published) || !sameEvent(published[i], g) {
				return fmt.Errorf("event %d: got %+v, want published[%d]", n, g, i)
			}
			i++
		}
	}
	if i != len(published) {
		return fmt.Errorf("got events for %d of %d published", i, len(published))
	}
	return nil
}

func sameDelta(p, g contract.RunEvent) bool {
	return p.Kind == g.Kind && p.Seq == g.Seq && p.Index == g.Index && slices.Equal(p.Subflow, g.Subflow)
}

func sameEvent(p, g contract.RunEvent) bool {
	return p.Kind == g.Kind && p.Seq == g.Seq && p.Delta == g.Delta && p.Text == g.Text && slices.Equal(p.Subflow, g.Subflow)
}
