package storetest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// oddSessionIDs are ids a file name, a path, a SQL pattern or a quoted
// string would take for something else, and ids of the longest length in
// bytes made of characters that escape long.
var oddSessionIDs = []string{
	".", "..", "../x", "a/../b", "/abs", `back\slash`, "%", "%2F", "_", "a%_b", "'; drop table x; --", `"quoted"`,
	"line\nbreak", "tab\there", "\x01ctl\x7f", " lead and trail ", "🙂", "~user", "*?[a]", "$HOME",
	strings.Repeat("é", store.MaxSessionID/2), strings.Repeat("x", store.MaxSessionID),
}

// oddIDs stores a session under each odd id and reads each back by every
// way in, each its own session, as an export of them imports into a
// fresh memory store.
func oddIDs(ctx context.Context, st store.Store) error {
	for i, id := range oddSessionIDs {
		recs := Script(id, 2+i%3)
		head, err := st.Append(ctx, id, recs...)
		if err != nil {
			return fmt.Errorf("st.Append(%q): %w", id, err)
		}
		if err := oddIDReads(ctx, st, id, head, recs); err != nil {
			return err
		}
	}
	want := slices.Clone(oddSessionIDs)
	slices.Sort(want)
	got, err := st.Sessions(ctx)
	if err != nil {
		return fmt.Errorf("st.Sessions: %w", err)
	}
	if err := diff("sessions", want, got); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := st.Export(ctx, &buf); err != nil {
		return fmt.Errorf("st.Export: %w", err)
	}
	ids, err := store.NewMemory().Import(ctx, &buf)
	if err != nil {
		return fmt.Errorf("store.NewMemory().Import of the export: %w", err)
	}
	if err := diff("imported sessions", want, ids); err != nil {
		return err
	}
	return st.Verify(ctx)
}

func oddIDReads(ctx context.Context, st store.Store, id string, head store.Hash, recs []contract.Record) error {
	if got, err := st.Head(ctx, id); err != nil || got != head {
		return fmt.Errorf("st.Head(%q) = %s, %v; want %s", id, got, err, head)
	}
	got, err := st.Records(ctx, id)
	if err != nil {
		return fmt.Errorf("st.Records(%q): %w", id, err)
	}
	if err := diff(fmt.Sprintf("records of %q", id), recs, got); err != nil {
		return err
	}
	l, err := st.Lease(ctx, id)
	if err != nil {
		return fmt.Errorf("st.Lease(%q): %w", id, err)
	}
	if err := l.Release(); err != nil {
		return fmt.Errorf("release of %q: %w", id, err)
	}
	snap := contract.RunSnapshot{SessionID: id, Steps: uint64(len(recs))}
	if err := st.SaveCheckpoint(ctx, id, head, snap); err != nil {
		return fmt.Errorf("st.SaveCheckpoint(%q): %w", id, err)
	}
	cp, err := st.Checkpoint(ctx, id)
	if err != nil {
		return fmt.Errorf("st.Checkpoint(%q): %w", id, err)
	}
	return diff(fmt.Sprintf("checkpoint of %q", id), store.Checkpoint{At: head, Snapshot: snap}, cp)
}
