package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// doneContext calls every write of the store with a cancelled context
// and checks that each fails with the context's error, for a caller to
// tell a request it gave up from a failed store, and that none of them
// stored anything.
func doneContext(ctx context.Context, st store.Store) error {
	recs := Script("r1", 3)
	head, err := st.Append(ctx, "s", recs[:2]...)
	if err != nil {
		return fmt.Errorf("st.Append: %w", err)
	}
	var export bytes.Buffer
	src := store.NewMemory()
	if _, err := src.Append(ctx, "imported", Script("r2", 2)...); err != nil {
		return err
	}
	if err := src.Export(ctx, &export); err != nil {
		return err
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	snap := contract.RunSnapshot{SessionID: "s", Steps: 2}
	calls := []struct {
		name string
		call func() error
	}{
		{"Append", func() error { return second(st.Append(done, "s", recs[2])) }},
		{"Append of a new session", func() error { return second(st.Append(done, "new", recs[0])) }},
		{"AppendLinked", func() error { return second(st.AppendLinked(done, "s", recs[2], head)) }},
		{"Fork", func() error { return st.Fork(done, "fork", head) }},
		{"SaveCheckpoint", func() error { return st.SaveCheckpoint(done, "s", head, snap) }},
		{"Import", func() error { return second(st.Import(done, bytes.NewReader(export.Bytes()))) }},
		{"Lease", func() error {
			l, err := st.Lease(done, "s")
			if err == nil {
				_ = l.Release()
			}
			return err
		}},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, context.Canceled) {
			return fmt.Errorf("%s with a cancelled context: got %v, want an error matching context.Canceled", c.name, err)
		}
	}
	ids, err := st.Sessions(ctx)
	if err != nil {
		return fmt.Errorf("st.Sessions: %w", err)
	}
	if err := diff("sessions after calls with a cancelled context", []string{"s"}, ids); err != nil {
		return err
	}
	if got, err := st.Head(ctx, "s"); err != nil || got != head {
		return fmt.Errorf("head after calls with a cancelled context = %s, %v; want %s", got, err, head)
	}
	if _, err := st.Checkpoint(ctx, "s"); !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("st.Checkpoint after SaveCheckpoint with a cancelled context: got %v, want ErrNotFound", err)
	}
	l, err := st.Lease(ctx, "s")
	if err != nil {
		return fmt.Errorf("st.Lease after Lease with a cancelled context: %w", err)
	}
	return l.Release()
}
