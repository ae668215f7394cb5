package contract

import (
	"encoding/json"
	"iter"
)

// History is an immutable, persistent list of turns. Append returns a new
// History that shares every existing turn with the old one, so a step
// never copies history; the zero value is empty. Each node keeps the
// running token total, so History.Tokens is O(1).
type History struct{ last *historyNode }

type historyNode struct {
	turn   Turn
	prev   *historyNode
	len    int
	tokens int
	chars  int
}

// HistoryOf builds a History from turns.
func HistoryOf(turns ...Turn) History {
	var h History
	for _, t := range turns {
		h = h.Append(t)
	}
	return h
}

// Append returns the history with t added at the end.
func (h History) Append(t Turn) History {
	n := &historyNode{turn: t, prev: h.last, len: 1, tokens: t.Tokens, chars: t.Chars()}
	if h.last != nil {
		n.len += h.last.len
		n.tokens += h.last.tokens
		n.chars += h.last.chars
	}
	return History{last: n}
}

// Len is the number of turns.
func (h History) Len() int {
	if h.last == nil {
		return 0
	}
	return h.last.len
}

// Tokens is the sum of the turns' token estimates.
func (h History) Tokens() int {
	if h.last == nil {
		return 0
	}
	return h.last.tokens
}

// Chars is the sum of the turns' Chars.
func (h History) Chars() int {
	if h.last == nil {
		return 0
	}
	return h.last.chars
}

// Last returns the newest turn.
func (h History) Last() (Turn, bool) {
	if h.last == nil {
		return Turn{}, false
	}
	return h.last.turn, true
}

// Tail returns the newest n turns (fewer if the history is shorter) in
// order. It costs O(n), not O(Len).
func (h History) Tail(n int) []Turn {
	n = min(n, h.Len())
	out := make([]Turn, n)
	node := h.last
	for i := n - 1; i >= 0; i-- {
		out[i] = node.turn
		node = node.prev
	}
	return out
}

// Turns returns all turns in order, in a new slice.
func (h History) Turns() []Turn { return h.Tail(h.Len()) }

// All yields the turns in order with their index. It copies no turn:
// it gathers the list's nodes, newest first, and walks them back.
func (h History) All() iter.Seq2[int, Turn] {
	return func(yield func(int, Turn) bool) {
		var buf [32]*historyNode
		nodes := buf[:0]
		if n := h.Len(); n > len(buf) {
			nodes = make([]*historyNode, 0, n)
		}
		for n := h.last; n != nil; n = n.prev {
			nodes = append(nodes, n)
		}
		for i := len(nodes) - 1; i >= 0; i-- {
			if !yield(len(nodes)-1-i, nodes[i].turn) {
				return
			}
		}
	}
}

// Backward yields the turns newest first with their index, without
// copying the history.
func (h History) Backward() iter.Seq2[int, Turn] {
	return func(yield func(int, Turn) bool) {
		for n := h.last; n != nil; n = n.prev {
			if !yield(n.len-1, n.turn) {
				return
			}
		}
	}
}

// After returns the turns appended to prefix to make h, oldest first,
// and whether prefix really is an earlier value of h (h grew from it by
// Append). It costs O(new turns), not O(Len).
func (h History) After(prefix History) ([]Turn, bool) {
	n := h.Len() - prefix.Len()
	if n < 0 {
		return nil, false
	}
	out := make([]Turn, n)
	node := h.last
	for i := n - 1; i >= 0; i-- {
		out[i] = node.turn
		node = node.prev
	}
	return out, node == prefix.last
}

// Equal reports whether both histories hold equal turns; go-cmp uses it.
func (h History) Equal(o History) bool {
	if h.Len() != o.Len() {
		return false
	}
	for a, b := h.last, o.last; a != nil; a, b = a.prev, b.prev {
		if a == b {
			return true
		}
		ea, _ := json.Marshal(a.turn)
		eb, _ := json.Marshal(b.turn)
		if string(ea) != string(eb) {
			return false
		}
	}
	return true
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
