package contract

import (
	"encoding/json"
	"iter"
	"sync/atomic"
)

// History is an immutable, persistent list of turns. Append returns a new
// History that shares every existing turn with the old one, so a step
// never copies history; the zero value is empty. Turns are kept in chunks
// of contiguous turns, laid out as a []Turn is, so walking a history reads
// memory in order, as much of it as walking a slice of the same turns,
// rather than chasing a pointer per turn; and each chunk keeps the running
// token and character totals beside its turns, so History.Tokens is O(1).
type History struct {
	c *historyChunk // the chunk holding the newest turn
	n int           // turns in the history
}

// historyChunk holds turns from position base on, in slots. Histories
// that share a chunk share its slots below their length; an Append takes
// the chunk's next free slot when its history ends there (used counts the
// slots taken), and otherwise, when another history took that slot
// first, or the chunk is full, starts a new chunk after it. A history
// holds the slots of each of its chunks below the next chunk's base.
// Slot i is turns[i] with its running totals in totals[i]: the totals
// are kept apart so that a walk of the turns reads nothing else.
type historyChunk struct {
	prev   *historyChunk
	turns  []Turn
	totals []historyTotals
	// base and used are 32 bits so that a small chunk and its slots fit
	// one 896-byte size class (see newHistoryChunk).
	base int32
	used atomic.Int32
}

// historyTotals are the running totals up to and with a slot's turn.
type historyTotals struct {
	tokens, chars int
}

// Chunks grow with the history, each half as long as the history before
// it, from small (most sessions, and every delegate's, are short) up to
// a size at which a long history is a few dozen chunks, so that a walk
// spends its time in the turns rather than going from chunk to chunk.
// Growing by half rather than doubling keeps a history's slots, each a
// turn's worth of memory held as long as the session, at most half again
// its turns, for a few more chunks on a long walk. A chunk started where
// another history took the next slot (a step rejected, or one snapshot
// stepped twice) holds two turns: such a branch is often one turn long,
// and if it grows, its next chunk is of the usual size.
const (
	smallChunkSlots  = 8
	chunkSlots       = 256
	branchChunkSlots = 2
)

// HistoryOf builds a History from turns.
func HistoryOf(turns ...Turn) History {
	var h History
	for _, t := range turns {
		h = h.Append(t)
	}
	return h
}

// last returns the newest turn and its totals; h is not empty.
func (h History) last() (*Turn, *historyTotals) {
	i := h.n - 1 - int(h.c.base)
	return &h.c.turns[i], &h.c.totals[i]
}

// Append returns the history with t added at the end.
func (h History) Append(t Turn) History {
	s := historyTotals{tokens: t.Tokens, chars: t.Chars()}
	if h.n > 0 {
		_, last := h.last()
		s.tokens += last.tokens
		s.chars += last.chars
	}
	c := h.c
	i := 0 // the slot of the new turn in c
	switch {
	case c != nil && h.n-int(c.base) < len(c.turns) && c.used.CompareAndSwap(int32(h.n-int(c.base)), int32(h.n-int(c.base)+1)):
		i = h.n - int(c.base)
	default:
		size := min(max(h.n/2, smallChunkSlots), chunkSlots)
		if c != nil && h.n-int(c.base) < len(c.turns) {
			size = branchChunkSlots
		}
		c = newHistoryChunk(c, h.n, size)
	}
	c.turns[i] = t
	c.totals[i] = s
	return History{c: c, n: h.n + 1}
}

// newHistoryChunk returns a chunk of size slots after prev, its first
// slot taken. A small chunk, as every short history's are, is one
// allocation with its slots.
func newHistoryChunk(prev *historyChunk, base, size int) *historyChunk {
	var c *historyChunk
	if size == smallChunkSlots {
		p := new(struct {
			historyChunk
			turns  [smallChunkSlots]Turn
			totals [smallChunkSlots]historyTotals
		})
		c = &p.historyChunk
		c.turns, c.totals = p.turns[:], p.totals[:]
	} else {
		c = &historyChunk{turns: make([]Turn, size), totals: make([]historyTotals, size)}
	}
	c.prev, c.base = prev, int32(base)
	c.used.Store(1)
	return c
}

// Len is the number of turns.
func (h History) Len() int { return h.n }

// Tokens is the sum of the turns' token estimates.
func (h History) Tokens() int {
	if h.n == 0 {
		return 0
	}
	_, s := h.last()
	return s.tokens
}

// Chars is the sum of the turns' Chars.
func (h History) Chars() int {
	if h.n == 0 {
		return 0
	}
	_, s := h.last()
	return s.chars
}

// Last returns the newest turn.
func (h History) Last() (Turn, bool) {
	if h.n == 0 {
		return Turn{}, false
	}
	t, _ := h.last()
	return *t, true
}

// Tail returns the newest n turns (fewer if the history is shorter, none
// if n is not positive) in order. It costs O(n), not O(Len).
func (h History) Tail(n int) []Turn {
	n = max(min(n, h.n), 0)
	out := make([]Turn, n)
	for i, t := range h.Backward() {
		if i < h.n-n {
			break
		}
		out[i-(h.n-n)] = t
	}
	return out
}

// Turns returns all turns in order, in a new slice.
func (h History) Turns() []Turn { return h.Tail(h.Len()) }

// All yields the turns in order with their index. It copies no turn:
// it gathers the history's chunks, newest first, and walks their slots
// oldest first.
func (h History) All() iter.Seq2[int, Turn] {
	return func(yield func(int, Turn) bool) {
		var buf [24]*historyChunk
		chunks := buf[:0]
		for c := h.c; c != nil; c = c.prev {
			chunks = append(chunks, c)
		}
		for k := len(chunks) - 1; k >= 0; k-- {
			c := chunks[k]
			end := h.n - int(c.base)
			if k > 0 {
				end = int(chunks[k-1].base) - int(c.base)
			}
			// From a local slice, as a range over a []Turn reads it: the
			// loop holds its bounds in registers and checks none.
			turns, base := c.turns[:end], int(c.base)
			for i := range turns {
				if !yield(base+i, turns[i]) {
					return
				}
			}
		}
	}
}

// Backward yields the turns newest first with their index, without
// copying the history.
func (h History) Backward() iter.Seq2[int, Turn] {
	return func(yield func(int, Turn) bool) {
		end := h.n
		for c := h.c; c != nil; c = c.prev {
			for i := end - int(c.base) - 1; i >= 0; i-- {
				if !yield(int(c.base)+i, c.turns[i]) {
					return
				}
			}
			end = int(c.base)
		}
	}
}

// After returns the turns appended to prefix to make h, oldest first,
// and whether prefix really is an earlier value of h (h grew from it by
// Append). It costs O(new turns), not O(Len).
func (h History) After(prefix History) ([]Turn, bool) {
	if !h.GrewFrom(prefix) {
		return nil, false
	}
	return h.Tail(h.n - prefix.n), true
}

// GrewFrom reports whether prefix is an earlier value of h: h was made
// from it by Append, or is it. It costs O(1).
func (h History) GrewFrom(prefix History) bool {
	switch {
	case prefix.n > h.n:
		return false
	case prefix.n == 0:
		return true
	}
	// prefix's newest turn is in its chunk's slot, which only prefix took:
	// h holds that slot exactly when it grew from prefix.
	return h.chunkAt(prefix.n-1) == prefix.c
}

// Equal reports whether both histories hold equal turns; go-cmp uses it.
func (h History) Equal(o History) bool {
	if h.Len() != o.Len() {
		return false
	}
	// Turns in one chunk at one position are one turn: from there back the
	// histories share everything.
	for i := h.n - 1; i >= 0; i-- {
		a, b := h.chunkAt(i), o.chunkAt(i)
		if a == b {
			return true
		}
		ea, _ := json.Marshal(a.turns[i-int(a.base)])
		eb, _ := json.Marshal(b.turns[i-int(b.base)])
		if string(ea) != string(eb) {
			return false
		}
	}
	return true
}

// chunkAt returns the chunk of h holding position i.
func (h History) chunkAt(i int) *historyChunk {
	c := h.c
	for c != nil && int(c.base) > i {
		c = c.prev
	}
	return c
}

// MarshalJSON encodes the history as an array of turns.
func (h History) MarshalJSON() ([]byte, error) {
	turns := h.Turns()
	if turns == nil {
		turns = []Turn{}
	}
	return json.Marshal(turns)
}

// UnmarshalJSON decodes an array of turns.
func (h *History) UnmarshalJSON(b []byte) error {
	var turns []Turn
	if err := json.Unmarshal(b, &turns); err != nil {
		return err
	}
	*h = HistoryOf(turns...)
	return nil
}
