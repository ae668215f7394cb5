package compactor

import (
	"fmt"
	"testing"
)

// Counters are kept by model and fallback: each, asked about again or past the
// number kept, counts as a counter made for it alone does.
func TestCountersAreKeptByModel(t *testing.T) {
	const text = "The quick brown fox jumps over the lazy dog, again and again."
	for i := range 2 * maxCounters {
		for _, model := range []string{fmt.Sprintf("gpt-4o-%d", i), fmt.Sprintf("house-model-%d", i)} {
			for _, k := range []counterKey{{model: model}, {model: model, bytesOnly: true}} {
				want := newCounter(k)(text)
				for range 2 {
					if got := counterFor(k)(text); got != want {
						t.Fatalf("counterFor(%+v) counts %d, a counter of its own %d", k, got, want)
					}
				}
			}
		}
	}
	if a, b := counterFor(counterKey{model: "gpt-4o"})(text), counterFor(counterKey{model: "house-model"})(text); a == b {
		t.Fatalf("gpt-4o and a model counted by characters agree (%d): the text does not tell them apart", a)
	}
}
