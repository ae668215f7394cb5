package wire

import "github.com/batonrt/baton/contract"

// take records the client message ids a run of t took.
func (h *Handler) take(t *thread, ids []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, id := range ids {
		if id == "" {
			continue
		}
		if t.taken == nil {
			t.taken = map[string]bool{}
		}
		t.taken[id] = true
	}
}

// untaken drops the turns whose client ids t's runs already took: a
// client sends its whole conversation, and one that posts again what it
// posted before (a retry whose first answer it never saw) has nothing
// new to say. Messages without an id are always new. The ids live as
// long as the thread; a thread opened again knows none.
func (h *Handler) untaken(t *thread, turns []contract.Turn, ids []string) ([]contract.Turn, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var keptTurns []contract.Turn
	var keptIDs []string
	for i, turn := range turns {
		id := ""
		if i < len(ids) {
			id = ids[i]
		}
		if id != "" && t.taken[id] {
			continue
		}
		keptTurns = append(keptTurns, turn)
		keptIDs = append(keptIDs, id)
	}
	return keptTurns, keptIDs
}
