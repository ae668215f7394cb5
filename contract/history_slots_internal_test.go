package contract

import "testing"

// TestHistorySlotsGrowByHalf checks that a history grown one turn at a
// time keeps at most half again as many slots as it has turns (or one
// small chunk more, while it is short): every slot is a whole turn's
// worth of memory, held for as long as the session is, and most
// sessions are short.
func TestHistorySlotsGrowByHalf(t *testing.T) {
	var h History
	for n := 1; n <= 1000; n++ {
		h = h.Append(UserText("x"))
		slots := 0
		for c := h.c; c != nil; c = c.prev {
			slots += len(c.turns)
		}
		if limit := n + max(n/2, smallChunkSlots); slots > limit {
			t.Fatalf("a history of %d turns keeps %d slots, more than %d", n, slots, limit)
		}
	}
}
