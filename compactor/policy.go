package compactor

import "github.com/batonrt/baton/contract"

// ShouldCompact reports whether a history of the given token total is due
// for compaction: tokens >= TriggerRatio*ContextWindow and the policy is not
// Disabled. Zero fields take contract's defaults; a policy whose threshold
// is not positive never triggers, so a bad policy cannot force compaction
// on every step.
func ShouldCompact(tokens int, p contract.CompactionPolicy) bool {
	if p.Disabled {
		return false
	}
	ratio, window := p.TriggerRatio, p.ContextWindow
	if ratio == 0 {
		ratio = contract.DefaultTriggerRatio
	}
	if window == 0 {
		window = contract.DefaultContextWindow
	}
	threshold := ratio * float64(window)
	if !(threshold > 0) {
		return false
	}
	return float64(tokens) >= threshold
}

// Shrinks reports whether the condensed history really is smaller, by
// token total, than the original. The reducer compacts only when it does,
// so compaction can never loop. A turn whose Tokens is unset counts its
// bytes/4 character-fallback estimate, so an unestimated turn is never
// free; only a history recorded before turns kept their counts, under the
// rules of that fallback, holds such turns.
func Shrinks(before, after []contract.Turn) bool {
	return total(after) < total(before)
}

func total(turns []contract.Turn) int {
	n := 0
	for _, t := range turns {
		if t.Tokens > 0 {
			n += t.Tokens
			continue
		}
		n += unestimated.Turn(t)
	}
	return n
}

// unestimated counts turns that carry no count.
var unestimated = EstimatorFor("", 0)
