package main

import (
	"context"
	"fmt"
	"io"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

func (a *app) log(ctx context.Context, args []string) error {
	fs := a.newFlags("log", "SESSION", "Print a session's transcript: user and assistant text, tool calls and results,\nsteering, compaction and errors. At each delegate call it names the session the\ndelegated run kept, with the command that prints it; --children prints that\ntranscript there instead, indented. --graph prints the node graph instead, --json\nthe records as canonical JSON lines, with terminal controls escaped as \\uXXXX.\nA delegated run's session is read by its id like any other, even one recorded\nbefore delegated runs had sessions listed of their own.")
	graph := fs.Bool("graph", false, "print the DAG of nodes: hash prefix, step, signal kind, parent")
	children := fs.Bool("children", false, "print each delegated run's transcript under the call that ran it")
	pos, err := fs.parse(args, 1, 1)
	if err != nil {
		return err
	}
	// --json prints the session's own records, neither the graph nor
	// the delegated runs' transcripts: together, one would be dropped.
	if fs.json && *graph {
		return usagef(fs.FlagSet, "log: --graph and --json: give one")
	}
	if fs.json && *children {
		return usagef(fs.FlagSet, "log: --children and --json: give one")
	}
	id := pos[0]
	st, _, err := fs.openExistingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := readHead(ctx, st, id)
	if err != nil {
		return err
	}
	if *graph {
		return writeGraph(ctx, a.stdout, st, h, "")
	}
	nodes, err := chainOf(ctx, st, h)
	if err != nil {
		return sessionErr(id, err)
	}
	if fs.json {
		for _, n := range nodes {
			b, err := contract.EncodeRecord(n.Record)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s\n", b)
		}
		return nil
	}
	l := sessionLog{ctx: ctx, st: st, storeArg: fs.storeArg(), children: *children}
	return l.write(a.stdout, id, nodes)
}

// sessionLog prints transcripts, delegated runs' within their parents'
// when children is set.
type sessionLog struct {
	ctx      context.Context
	st       store.Store
	storeArg string
	children bool
}

func (l sessionLog) write(w io.Writer, id string, nodes []store.Node) error {
	rules := replayRules()
	// A record the rules refuse ends the runs found there; the transcript
	// says where.
	runs, _ := delegatesOf(rules, id, nodes)
	view := delegateView{runs: runs, storeArg: l.storeArg}
	if l.children {
		view.inline = l.child
	}
	return writeTranscriptWith(w, rules, id, recordsOf(nodes), view)
}

// child writes a delegated run's transcript: the chain its parent linked,
// or, for a call still running, the child session's own.
func (l sessionLog) child(w io.Writer, r delegateRun) error {
	h := r.head
	if h.IsZero() {
		var err error
		if h, err = readHead(l.ctx, l.st, r.session); err != nil {
			return err
		}
	}
	nodes, err := chainOf(l.ctx, l.st, h)
	if err != nil {
		return sessionErr(r.session, err)
	}
	return l.write(w, r.session, nodes)
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
