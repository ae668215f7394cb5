package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

type sessionRow struct {
	ID      string    `json:"id"`
	Steps   uint64    `json:"steps"`
	Head    string    `json:"head"`
	Updated time.Time `json:"updated,omitzero"`
	// Status is how the session's last run stands: settled, faulted,
	// stopped, or its phase while in flight.
	Status string `json:"status,omitempty"`
	// Prompt is the session's first prompt.
	Prompt string `json:"prompt,omitempty"`
	// Parent is, for a delegated run's session (listed with --children),
	// the session whose call ran it.
	Parent string `json:"parent,omitempty"`
	// Error says why a session could not be read; the other fields are
	// then empty.
	Error string `json:"error,omitempty"`

	depth    int           // delegation depth, 0 for a session of its own
	children []delegateRun // the delegated runs its records name
}

// errDamagedSessions is returned after listing when any session could not
// be read, so the exit code tells a script the store needs attention.
var errDamagedSessions = errors.New("sessions are damaged")

func (a *app) sessions(ctx context.Context, args []string) error {
	fs := a.newFlags("sessions", "", "List the stored sessions, the most recently updated last: id, steps (its own,\nnot its delegated runs'), how its last run stands, last update and first prompt\n(--json adds the head node). The sessions delegated runs keep are left out:\n--children lists each under the session that ran it, indented (--json names\nits parent), and 'baton log --children' prints them within their parent's\ntranscript. A session that cannot be read is listed as damaged, its error goes\nto stderr, and the exit code is 1.")
	children := fs.Bool("children", false, "list delegated runs' sessions too, each under its parent")
	if _, err := fs.parse(args, 0, 0); err != nil {
		return err
	}
	st, _, err := fs.openExistingStore()
	if errors.Is(err, errNoStore) && fs.store == "" {
		// A fresh machine has no default store yet: nothing is wrong.
		if !fs.json {
			fmt.Fprintln(a.stdout, "no sessions yet: try 'baton demo'")
		}
		return nil
	}
	if err != nil {
		return err
	}
	defer st.Close()
	ids, err := st.Sessions(ctx)
	if err != nil {
		return fmt.Errorf("list sessions: %w", err)
	}
	rows := make([]sessionRow, 0, len(ids))
	damaged := 0
	for _, id := range ids {
		r, err := sessionInfo(ctx, st, id)
		if err != nil {
			// A cancelled listing is not a damaged session.
			if ctx.Err() != nil {
				return err
			}
			damaged++
			fmt.Fprintf(a.stderr, "baton: %s\n", safeLine(err.Error()))
			r = sessionRow{ID: id, Error: err.Error()}
		}
		rows = append(rows, r)
	}
	// Oldest first, so the newest is next to the prompt; damaged ones,
	// whose time is unknown, last.
	slices.SortStableFunc(rows, func(a, b sessionRow) int {
		switch {
		case a.Error == "" && b.Error != "":
			return -1
		case a.Error != "" && b.Error == "":
			return 1
		}
		return a.Updated.Compare(b.Updated)
	})
	tree := delegationTree{ctx: ctx, st: st, rows: map[string]sessionRow{}}
	rows, hidden := tree.arrange(rows, *children)
	if err := a.printSessions(fs.json, rows); err != nil {
		return err
	}
	if hidden > 0 && !fs.json {
		fmt.Fprintf(a.stdout, "(%s of delegated runs not listed: 'baton sessions --children' lists them)\n", count(int64(hidden), "session"))
	}
	if damaged+tree.damaged > 0 {
		return fmt.Errorf("%w: %d of %d", errDamagedSessions, damaged+tree.damaged, len(rows))
	}
	return nil
}

// sessionInfo reads the row of one session.
func sessionInfo(ctx context.Context, st store.Store, id string) (sessionRow, error) {
	h, err := head(ctx, st, id)
	if err != nil {
		return sessionRow{}, err
	}
	return chainInfo(ctx, st, id, h)
}

// chainInfo reads the row of session id, whose chain ends at h.
func chainInfo(ctx context.Context, st store.Store, id string, h store.Hash) (sessionRow, error) {
	nodes, err := chainOf(ctx, st, h)
	if err != nil {
		return sessionRow{}, sessionErr(id, err)
	}
	if len(nodes) == 0 {
		return sessionRow{}, sessionErr(id, store.ErrNotFound)
	}
	n := nodes[len(nodes)-1]
	row := sessionRow{ID: id, Steps: n.Record.Step, Head: h.String(), Updated: n.Record.Signal.When().Time()}
	records := recordsOf(nodes)
	snap, err := replayRules().Fold(cadence.InitialSnapshot(id), records)
	if err != nil {
		return sessionRow{}, fmt.Errorf("session %q: %w", id, err)
	}
	if row.children, err = delegatesOf(replayRules(), id, nodes); err != nil {
		return sessionRow{}, fmt.Errorf("session %q: %w", id, err)
	}
	row.Status = statusOf(snap)
	for _, rec := range records {
		if sub, ok := rec.Signal.(contract.Submitted); ok && len(sub.Input) > 0 {
			row.Prompt = sub.Input[len(sub.Input)-1].Text()
			break
		}
	}
	return row, nil
}

// statusOf says how a session's last run stands.
func statusOf(s contract.RunSnapshot) string {
	switch {
	case s.Phase == contract.PhaseFaulted && s.Err != nil && s.Err.Kind == contract.KindAborted:
		return "stopped"
	case s.Phase == contract.PhaseFaulted:
		return "faulted"
	case s.Phase.InFlight():
		return "in flight"
	}
	return string(s.Phase)
}

func (a *app) printSessions(asJSON bool, rows []sessionRow) error {
	if asJSON {
		enc := json.NewEncoder(a.stdout)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(rows) == 0 {
		fmt.Fprintln(a.stdout, "no sessions yet: try 'baton demo'")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tSTEPS\tSTATUS\tUPDATED\tFIRST PROMPT")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t-\tdamaged\t-\t-\n", safeLine(r.ID))
			continue
		}
		fmt.Fprintf(tw, "%s%s\t%d\t%s\t%s\t%s\n", strings.Repeat("  ", r.depth), safeLine(r.ID), r.Steps, r.Status, r.Updated.Format(time.DateTime), oneLine(r.Prompt, 60))
	}
	return tw.Flush()
}
