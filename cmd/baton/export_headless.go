package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/batonrt/baton/store"
)

// exportSource returns the store to export the named sessions from: st
// itself, or, when some are delegated runs recorded before children had
// heads of their own (which log and replay read through their parents'
// links), a copy in memory of the sessions holding them, where each has
// a head under its id. The copy holds only what the export writes; the
// caller closes it.
func exportSource(ctx context.Context, st store.Store, ids []string) (store.Store, error) {
	var from []string
	headless := map[string]store.Hash{}
	for _, id := range ids {
		_, err := st.Head(ctx, id)
		if err == nil {
			from = append(from, id)
			continue
		}
		if !errors.Is(err, store.ErrNotFound) {
			return nil, sessionErr(id, err)
		}
		root, h, err := headlessChild(ctx, st, id)
		if err != nil {
			return nil, err
		}
		headless[id] = h
		if !slices.Contains(from, root) {
			from = append(from, root)
		}
	}
	if len(headless) == 0 {
		return st, nil
	}
	var buf bytes.Buffer
	if err := st.Export(ctx, &buf, from...); err != nil {
		return nil, err
	}
	mem := store.NewMemory()
	if _, err := mem.Import(ctx, &buf); err != nil {
		mem.Close()
		return nil, fmt.Errorf("export: %w", err)
	}
	for id, h := range headless {
		if err := mem.Fork(ctx, id, h); err != nil {
			mem.Close()
			return nil, fmt.Errorf("export %s: %w", id, err)
		}
	}
	return mem, nil
}
