package storetest

import (
	"context"
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// record appends rec through store.Recorder when st is one, else through
// Append, as the conductor does.
func record(ctx context.Context, st store.Store, sessionID string, rec contract.Record) error {
	if r, ok := st.(store.Recorder); ok {
		return r.Record(ctx, sessionID, rec)
	}
	_, err := st.Append(ctx, sessionID, rec)
	return err
}

// chainHead is the head a chain of recs reaches from the root: what
// every store must name it, however the records came in.
func chainHead(recs []contract.Record) (store.Hash, error) {
	var h store.Hash
	for _, r := range recs {
		b, err := store.EncodeNode(store.Node{Parent: h, Record: r})
		if err != nil {
			return store.Hash{}, err
		}
		h = store.HashOf(b)
	}
	return h, nil
}

// recordLikeAppend records a script into two sessions through Record
// (Append for a store that is no Recorder), mixed with Appends and
// reads, and checks every read sees the nodes Append would have made.
func recordLikeAppend(ctx context.Context, st store.Store) error {
	recs := Script("rec", 12)
	for i, r := range recs[:5] {
		if err := record(ctx, st, "s", r); err != nil {
			return fmt.Errorf("record %d: %w", i, err)
		}
	}
	if err := expect("a recorded step out of sequence", record(ctx, st, "s", recs[6]), store.ErrInvalid); err != nil {
		return err
	}
	if _, err := st.Append(ctx, "s", recs[5]); err != nil {
		return fmt.Errorf("st.Append after records: %w", err)
	}
	for i, r := range recs[6:9] {
		if err := record(ctx, st, "s", r); err != nil {
			return fmt.Errorf("record %d: %w", 6+i, err)
		}
	}
	want, err := chainHead(recs[:9])
	if err != nil {
		return err
	}
	if got, err := st.Head(ctx, "s"); err != nil || got != want {
		return fmt.Errorf("st.Head after nine records = %s, %v; want %s", got, err, want)
	}
	for _, r := range recs[9:] {
		if err := record(ctx, st, "s", r); err != nil {
			return err
		}
	}
	for _, r := range recs[:3] {
		if err := record(ctx, st, "t", r); err != nil {
			return err
		}
	}
	ids, err := st.Sessions(ctx)
	if err != nil {
		return err
	}
	if err := diff("sessions", []string{"s", "t"}, ids); err != nil {
		return err
	}
	got, err := st.Records(ctx, "s")
	if err != nil {
		return fmt.Errorf("st.Records: %w", err)
	}
	if err := diff("records", recs, got); err != nil {
		return err
	}
	if want, err = chainHead(recs); err != nil {
		return err
	}
	n, err := st.Node(ctx, want)
	if err != nil {
		return fmt.Errorf("st.Node of the head Append would have made: %w", err)
	}
	if n.Record.Step != 12 {
		return fmt.Errorf("the head node holds step %d, want 12", n.Record.Step)
	}
	if _, err := st.Node(ctx, mustHead(ctx, st, "t")); err != nil {
		return fmt.Errorf("st.Node of t's head: %w", err)
	}
	if err := st.Verify(ctx); err != nil {
		return fmt.Errorf("st.Verify: %w", err)
	}
	var bad contract.Record
	bad.Step = 13
	if err := record(ctx, st, "s", bad); !errors.Is(err, store.ErrInvalid) {
		return fmt.Errorf("a record with no signal: got %v, want ErrInvalid", err)
	}
	return nil
}
