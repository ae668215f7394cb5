package wire

import "github.com/batonrt/baton/contract"

// takeNew drops the turns the thread already took under the same client
// ids and with the same text, and takes the rest: a client sends its
// whole conversation, and one that posts again what it posted before (a
// retry whose first answer it never saw) has nothing new to say, while
// one that sends another text under an old id has edited that message. Dropping and taking are one step, so that
// of two posts of one message at once only one says it. A caller that
// then uses none of the turns gives their ids back with untake. Messages
// without an id are always new.
//
// The session keeps each input turn's client id (contract.Turn.ClientID),
// so what the thread's runs took is known after the thread is closed and
// opened again, here or after a restart. t.taken holds only the ids of
// posts whose turns are not in the session yet, each given back once
// they are, so it does not grow with the thread.
func (h *Handler) takeNew(t *thread, turns []contract.Turn, ids []string) ([]contract.Turn, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	snap := t.r.Snapshot()
	had := sessionTook(snap, ids, turns)
	// A message whose run faulted (or was stopped) is new again: posting
	// it again is a retry of that failure, and the failed run's turns are
	// out of later model calls (contract.FailedRunsPolicy).
	retry := snap.Phase == contract.PhaseFaulted
	var keptTurns []contract.Turn
	var keptIDs []string
	for i, turn := range turns {
		id := ""
		if i < len(ids) {
			id = ids[i]
		}
		text, starting := t.taken[id]
		latest, stored := had[id]
		switch {
		case id == "":
		case starting && text == turn.Text():
			continue // another post of it is starting its run or steering
		case stored && !(latest && retry):
			continue
		}
		turn.ClientID = id
		keptTurns = append(keptTurns, turn)
		keptIDs = append(keptIDs, id)
	}
	for i, id := range keptIDs {
		if id == "" {
			continue
		}
		if t.taken == nil {
			t.taken = map[string]string{}
		}
		t.taken[id] = keptTurns[i].Text()
	}
	return keptTurns, keptIDs
}

// untake gives back ids takeNew took: for a post that used none of them,
// or once the session holds them. It wakes the posts of the same ids
// waiting for that (whenUntaken).
func (h *Handler) untake(t *thread, ids []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, id := range ids {
		delete(t.taken, id)
	}
	if t.untaken != nil {
		close(t.untaken)
		t.untaken = nil
	}
}

// whenUntaken returns a channel closed at t's next untake.
func (h *Handler) whenUntaken(t *thread) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.untaken == nil {
		t.untaken = make(chan struct{})
	}
	return t.untaken
}

// sessionTook returns the client ids of ids that the session of snap
// took, in its history, its queued input or the latest run's input that
// compaction condensed, each with whether it went to the session's
// latest run. A turn under an id is taken only with the
// text of turns under that id: a message of another text under an old id
// is an edit, not the message posted again. The newest turns are looked
// at first, where a message posted again is.
func sessionTook(snap contract.RunSnapshot, ids []string, turns []contract.Turn) map[string]bool {
	want := map[string]string{}
	for i, id := range ids {
		if id != "" && i < len(turns) {
			want[id] = turns[i].Text()
		}
	}
	if len(want) == 0 {
		return nil
	}
	took := map[string]bool{}
	see := func(turn contract.Turn, latest bool) {
		text, ok := want[turn.ClientID]
		if _, seen := took[turn.ClientID]; seen || !ok || turn.Text() != text {
			return
		}
		took[turn.ClientID] = latest
	}
	for _, q := range snap.Queued {
		for _, turn := range q.Turns {
			see(turn, true)
		}
	}
	for _, turn := range snap.CondensedInput {
		see(turn, true)
	}
	for i, turn := range snap.History.Backward() {
		if len(took) == len(want) {
			break
		}
		see(turn, i >= snap.RunFrom)
	}
	return took
}

// inLatest reports whether one of the ids took went to the latest run.
func inLatest(took map[string]bool) bool {
	for _, latest := range took {
		if latest {
			return true
		}
	}
	return false
}
