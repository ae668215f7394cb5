package wire

import "github.com/batonrt/baton/contract"

// takeLocked records the client message ids a run of t took.
func (h *Handler) takeLocked(t *thread, ids []string) {
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

// takeNew drops the turns whose client ids t's runs already took, and
// takes the rest: a client sends its whole conversation, and one that
// posts again what it posted before (a retry whose first answer it never
// saw) has nothing new to say. Dropping and taking are one step, so that
// of two posts of one message at once only one says it. A caller that
// then uses none of the turns gives their ids back with untake. Messages
// without an id are always new. The ids live as long as the thread; a
// thread opened again knows none.
func (h *Handler) takeNew(t *thread, turns []contract.Turn, ids []string) ([]contract.Turn, []string) {
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
	h.takeLocked(t, keptIDs)
	return keptTurns, keptIDs
}

// untake gives back ids takeNew took for a post that used none of them.
func (h *Handler) untake(t *thread, ids []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, id := range ids {
		delete(t.taken, id)
	}
}
