package store_test

import (
	"context"
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

// workload is a scripted multi-session run: sessions take turns, each
// appending one record or a small batch at a time.
type workload struct {
	sessions []string
	recs     map[string][]contract.Record
	batches  []batch
}

type batch struct {
	session string
	from, n int
}

func newWorkload(sessions, records int) workload {
	w := workload{recs: map[string][]contract.Record{}}
	for i := range sessions {
		id := fmt.Sprintf("sess-%d", i)
		w.sessions = append(w.sessions, id)
		w.recs[id] = storetest.Script(id, records)
	}
	next := map[string]int{}
	for round := 0; ; round++ {
		progressed := false
		for i, id := range w.sessions {
			from := next[id]
			if from >= records {
				continue
			}
			n := 1
			if (round+i)%5 == 4 {
				n = min(3, records-from)
			}
			w.batches = append(w.batches, batch{id, from, n})
			next[id] = from + n
			progressed = true
		}
		if !progressed {
			return w
		}
	}
}

// run appends every batch, counting per session the records that were
// acknowledged, and stops at the first error.
func (w workload) run(ctx context.Context, st store.Store, acked map[string]int) error {
	for _, b := range w.batches {
		if _, err := st.Append(ctx, b.session, w.recs[b.session][b.from:b.from+b.n]...); err != nil {
			return err
		}
		acked[b.session] = b.from + b.n
	}
	return nil
}

// check opens nothing: it checks that st holds, for every session, a
// prefix of the script at least as long as what was acknowledged, then
// finishes the script and compares the heads with want.
func (w workload) check(ctx context.Context, st store.Store, acked map[string]int, want map[string]store.Hash) error {
	if err := st.Verify(ctx); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	for _, id := range w.sessions {
		recs, err := st.Records(ctx, id)
		if err != nil && !(acked[id] == 0 && errIsNotFound(err)) {
			return fmt.Errorf("records of %s: %w", id, err)
		}
		if len(recs) < acked[id] {
			return fmt.Errorf("%s: %d records acknowledged, %d found", id, acked[id], len(recs))
		}
		script := w.recs[id]
		if len(recs) > len(script) {
			return fmt.Errorf("%s: %d records, the script has %d", id, len(recs), len(script))
		}
		for i := range recs {
			if recs[i].Step != script[i].Step || recs[i].Effects != script[i].Effects || recs[i].Signal.SignalKind() != script[i].Signal.SignalKind() {
				return fmt.Errorf("%s: record %d differs from the script", id, i)
			}
		}
		if len(recs) < len(script) {
			if _, err := st.Append(ctx, id, script[len(recs):]...); err != nil {
				return fmt.Errorf("finish %s: %w", id, err)
			}
		}
		head, err := st.Head(ctx, id)
		if err != nil {
			return err
		}
		if head != want[id] {
			return fmt.Errorf("%s: head %s after resume, %s uninterrupted", id, head, want[id])
		}
	}
	return nil
}

func (w workload) heads(ctx context.Context) (map[string]store.Hash, error) {
	st := store.NewMemory()
	if err := w.run(ctx, st, map[string]int{}); err != nil {
		return nil, err
	}
	out := map[string]store.Hash{}
	for _, id := range w.sessions {
		h, err := st.Head(ctx, id)
		if err != nil {
			return nil, err
		}
		out[id] = h
	}
	return out, nil
}
