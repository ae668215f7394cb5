package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// nodeLimit appends a node of exactly store.MaxNode bytes (a tool result
// of nearly 16 MiB), reads it back, verifies the store and moves it
// through Export and Import into a fresh store of the same kind; a node
// one byte larger is refused, by Append and by Record, with ErrInvalid
// naming the limit, and nothing of it is stored.
func nodeLimit(ctx context.Context, st store.Store, fresh func() store.Store) error {
	recs := Script("big", 4)
	before, err := st.Append(ctx, "s", recs[:3]...)
	if err != nil {
		return fmt.Errorf("st.Append of the first records: %w", err)
	}
	over, err := sizedRecord(recs[3], before, store.MaxNode+1)
	if err != nil {
		return err
	}
	if err := refusedOver(ctx, st, before, recs[:3], over); err != nil {
		return err
	}
	at, err := sizedRecord(recs[3], before, store.MaxNode)
	if err != nil {
		return err
	}
	recs[3] = at
	head, err := st.Append(ctx, "s", at)
	if err != nil {
		return fmt.Errorf("st.Append of a node of store.MaxNode bytes: %w", err)
	}
	if err := readsBack(ctx, st, "s", head, recs); err != nil {
		return err
	}
	if err := recordedAtLimit(ctx, st, head, recs); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := st.Export(ctx, &buf, "s"); err != nil {
		return fmt.Errorf("st.Export of a node of store.MaxNode bytes: %w", err)
	}
	dst := fresh()
	if _, err := dst.Import(ctx, &buf); err != nil {
		return fmt.Errorf("dst.Import of the export into a fresh store: %w", err)
	}
	got, err := dst.Records(ctx, "s")
	if err != nil {
		return fmt.Errorf("records of the import: %w", err)
	}
	return diff("imported records", recs, got)
}

// sizedRecord is rec, a tool's settling, with content that makes its
// node after parent exactly size bytes: 'x' encodes as one byte, so the
// node grows with the content byte for byte.
func sizedRecord(rec contract.Record, parent store.Hash, size int) (contract.Record, error) {
	settled := rec.Signal.(contract.ToolSettled)
	settled.Outcome.Content = ""
	rec.Signal = settled
	empty, err := store.EncodeNode(store.Node{Parent: parent, Record: rec})
	if err != nil {
		return rec, fmt.Errorf("store.EncodeNode: %w", err)
	}
	settled.Outcome.Content = strings.Repeat("x", size-len(empty))
	rec.Signal = settled
	if b, err := store.EncodeNode(store.Node{Parent: parent, Record: rec}); err != nil || len(b) != size {
		return rec, fmt.Errorf("storetest: a node sized to %d bytes encodes to %d, %v", size, len(b), err)
	}
	return rec, nil
}

// refusedOver checks that a record whose node is over store.MaxNode is
// refused, by Append and by Record when st is a Recorder, and that the
// session still reads as it was.
func refusedOver(ctx context.Context, st store.Store, head store.Hash, recs []contract.Record, over contract.Record) error {
	_, err := st.Append(ctx, "s", over)
	if err := refusal("st.Append", err); err != nil {
		return err
	}
	if r, ok := st.(store.Recorder); ok {
		if err := refusal("st.Record", r.Record(ctx, "s", over)); err != nil {
			return err
		}
	}
	if got, err := st.Head(ctx, "s"); err != nil || got != head {
		return fmt.Errorf("head after a refused node over store.MaxNode = %s, %v; want %s, as before it", got, err, head)
	}
	got, err := st.Records(ctx, "s")
	if err != nil {
		return fmt.Errorf("st.Records after a refused node over store.MaxNode: %w", err)
	}
	return diff("records after a refused node over store.MaxNode", recs, got)
}

// refusal checks err is ErrInvalid naming the limit, so a user learns
// what was too large and by how much.
func refusal(what string, err error) error {
	if !errors.Is(err, store.ErrInvalid) {
		return fmt.Errorf("%s of a node of store.MaxNode+1 bytes: got %v, want ErrInvalid: a store must refuse what it could not export", what, err)
	}
	if !strings.Contains(err.Error(), strconv.Itoa(store.MaxNode)) {
		return fmt.Errorf("%s of a node of store.MaxNode+1 bytes: error %q does not name the limit %d", what, err, store.MaxNode)
	}
	return nil
}

// recordedAtLimit checks that a store.Recorder takes through Record the
// records Append took, the last a node of store.MaxNode bytes, into a
// session of their own that reads back as Append's did.
func recordedAtLimit(ctx context.Context, st store.Store, head store.Hash, recs []contract.Record) error {
	r, ok := st.(store.Recorder)
	if !ok {
		return nil
	}
	for _, rec := range recs {
		if err := r.Record(ctx, "r", rec); err != nil {
			return fmt.Errorf("st.Record of step %d, the last a node of store.MaxNode bytes: %w", rec.Step, err)
		}
	}
	return readsBack(ctx, st, "r", head, recs)
}

// readsBack checks the session's records and head node, and Verify.
func readsBack(ctx context.Context, st store.Store, session string, head store.Hash, recs []contract.Record) error {
	got, err := st.Records(ctx, session)
	if err != nil {
		return fmt.Errorf("st.Records: %w", err)
	}
	if err := diff("records", recs, got); err != nil {
		return err
	}
	if got, err := st.Head(ctx, session); err != nil || got != head {
		return fmt.Errorf("st.Head(%q) = %s, %v; want %s", session, got, err, head)
	}
	if n, err := st.Node(ctx, head); err != nil || n.Record.Step != recs[len(recs)-1].Step {
		return fmt.Errorf("st.Node(head) = step %d, %v; want step %d", n.Record.Step, err, recs[len(recs)-1].Step)
	}
	if err := st.Verify(ctx); err != nil {
		return fmt.Errorf("st.Verify: %w", err)
	}
	return nil
}
