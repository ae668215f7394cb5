package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
	// Error says why a session could not be read; the other fields are
	// then empty.
	Error string `json:"error,omitempty"`
}

// errDamagedSessions is returned after listing when any session could not
// be read, so the exit code tells a script the store needs attention.
var errDamagedSessions = errors.New("sessions are damaged")

func (a *app) sessions(ctx context.Context, args []string) error {
	fs := a.newFlags("sessions", "", "List the stored sessions, the most recently updated last: id, steps, how\nits last run stands, last update and first prompt (--json adds the head node).\nA session that cannot be read is listed as damaged, its error goes to\nstderr, and the exit code is 1.")
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
	if err := a.printSessions(fs.json, rows); err != nil {
		return err
	}
	if damaged > 0 {
		return fmt.Errorf("%w: %d of %d", errDamagedSessions, damaged, len(rows))
	}
	return nil
}

// sessionInfo reads the row of one session.
func sessionInfo(ctx context.Context, st store.Store, id string) (sessionRow, error) {
	h, err := head(ctx, st, id)
	if err != nil {
		return sessionRow{}, err
	}
	n, err := st.Node(ctx, h)
	if err != nil {
		return sessionRow{}, sessionErr(id, err)
	}
	row := sessionRow{ID: id, Steps: n.Record.Step, Head: h.String(), Updated: n.Record.Signal.When().Time()}
	records, err := st.Records(ctx, id)
	if err != nil {
		return sessionRow{}, sessionErr(id, err)
	}
	snap, err := replayRules().Fold(cadence.InitialSnapshot(id), records)
	if err != nil {
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
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", safeLine(r.ID), r.Steps, r.Status, r.Updated.Format(time.DateTime), oneLine(r.Prompt, 60))
	}
	return tw.Flush()
}
