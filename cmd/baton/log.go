package main

import (
	"context"
	"fmt"
	"io"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

func (a *app) log(ctx context.Context, args []string) error {
	fs := a.newFlags("log", "SESSION", "Print a session's transcript: user and assistant text, tool calls and results,\nsteering, compaction and errors. --graph prints the node graph instead, --json\nthe records as canonical JSON lines, with terminal controls escaped as \\uXXXX.")
	graph := fs.Bool("graph", false, "print the DAG of nodes: hash prefix, step, signal kind, parent")
	pos, err := fs.parse(args, 1, 1)
	if err != nil {
		return err
	}
	id := pos[0]
	st, _, err := fs.openExistingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := head(ctx, st, id)
	if err != nil {
		return err
	}
	if *graph {
		return writeGraph(ctx, a.stdout, st, h, "")
	}
	records, err := st.Records(ctx, id)
	if err != nil {
		return sessionErr(id, err)
	}
	if fs.json {
		for _, rec := range records {
			b, err := contract.EncodeRecord(rec)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s\n", b)
		}
		return nil
	}
	return writeTranscript(a.stdout, replayRules(), id, records)
}

// writeGraph prints the chain ending at h, newest first, and under each
// node the chains of delegated runs linked into it, indented.
func writeGraph(ctx context.Context, w io.Writer, st store.Store, h store.Hash, prefix string) error {
	for n, err := range st.Walk(ctx, h) {
		if err != nil {
			return fmt.Errorf("graph: the store is damaged: %w", err)
		}
		parent := "(root)"
		if !n.Parent.IsZero() {
			parent = shortHash(n.Parent)
		}
		fmt.Fprintf(w, "%s* %s  step %-4d %-18s parent %s\n", prefix, shortHash(n.Hash), n.Record.Step, n.Record.Signal.SignalKind(), parent)
		for _, l := range n.Links {
			fmt.Fprintf(w, "%s|\\ link %s\n", prefix, shortHash(l))
			if err := writeGraph(ctx, w, st, l, prefix+"| "); err != nil {
				return err
			}
		}
	}
	return nil
}
