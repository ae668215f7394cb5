package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// raceAppends is how many records the racers of one session land in all;
// raceAttempts bounds one racer's tries, so a rule that breaks fails
// rather than hangs.
const (
	raceAppends  = 20
	raceRacers   = 4
	raceAttempts = 5000
)

// racingOwners races two stores over one backend, two goroutines each,
// for the lock of one session: each winner appends the record after the
// head it finds and lets go. One holder at a time, every append lands,
// and the session is the script, each record once.
func racingOwners(ctx context.Context, b store.Backend) error {
	stores := [2]store.Store{store.New(b), store.New(b)}
	var holders atomic.Int32
	return race(ctx, stores, func(st store.Store, recs []contract.Record) (bool, error) {
		release, err := st.Lock(ctx, "s")
		if errors.Is(err, store.ErrLocked) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("st.Lock: %w", err)
		}
		defer release()
		if n := holders.Add(1); n != 1 {
			return false, fmt.Errorf("%d holders of one session's lock at once", n)
		}
		defer holders.Add(-1)
		step, err := headStep(ctx, st)
		if err != nil {
			return false, err
		}
		if _, err := st.Append(ctx, "s", recs[step]); err != nil {
			return false, fmt.Errorf("append by the lock's holder: %w", err)
		}
		return true, nil
	})
}

// racingWriters races two stores over one backend, two goroutines each,
// appending to one session without its lock: an append either lands or
// is refused as a lost race (ErrConflict, ErrLocked, or ErrInvalid for a
// step the head has passed), and the session is the script, each record
// once.
func racingWriters(ctx context.Context, b store.Backend) error {
	stores := [2]store.Store{store.New(b), store.New(b)}
	return race(ctx, stores, func(st store.Store, recs []contract.Record) (bool, error) {
		step, err := headStep(ctx, st)
		if err != nil {
			return false, err
		}
		_, err = st.Append(ctx, "s", recs[step])
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, store.ErrConflict), errors.Is(err, store.ErrLocked), errors.Is(err, store.ErrInvalid):
			return false, nil
		default:
			return false, fmt.Errorf("append that lost a race: got %w, want ErrConflict, ErrLocked or ErrInvalid", err)
		}
	})
}

// race runs raceRacers goroutines over stores, each trying try until it
// has landed its share of raceAppends, and checks the session after.
func race(ctx context.Context, stores [2]store.Store, try func(st store.Store, recs []contract.Record) (bool, error)) error {
	// Room for the appends of racers that all found one left to land.
	recs := Script("race", raceAppends+raceRacers)
	var landed atomic.Int32
	errs := make([]error, raceRacers)
	var wg sync.WaitGroup
	for i := range raceRacers {
		wg.Go(func() {
			st := stores[i%2]
			for attempt := 0; landed.Load() < raceAppends; attempt++ {
				if attempt == raceAttempts {
					errs[i] = fmt.Errorf("racer %d: no append landed in %d tries", i, raceAttempts)
					return
				}
				if landed.Load() >= raceAppends {
					return
				}
				ok, err := try(st, recs)
				if err != nil {
					errs[i] = fmt.Errorf("racer %d: %w", i, err)
					return
				}
				if ok {
					landed.Add(1)
				} else {
					time.Sleep(100 * time.Microsecond)
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	got, err := stores[0].Records(ctx, "s")
	if err != nil {
		return fmt.Errorf("st.Records: %w", err)
	}
	return diff("records the racers landed", recs[:landed.Load()], got)
}

// headStep returns the step of the session's head, 0 when it has none.
func headStep(ctx context.Context, st store.Store) (uint64, error) {
	head, err := st.Head(ctx, "s")
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("st.Head: %w", err)
	}
	n, err := st.Node(ctx, head)
	if err != nil {
		return 0, fmt.Errorf("st.Node(head): %w", err)
	}
	return n.Record.Step, nil
}
