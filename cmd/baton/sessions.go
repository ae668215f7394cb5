package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"
)

type sessionRow struct {
	ID      string    `json:"id"`
	Steps   uint64    `json:"steps"`
	Head    string    `json:"head"`
	Updated time.Time `json:"updated"`
}

func (a *app) sessions(ctx context.Context, args []string) error {
	fs := a.newFlags("sessions", "", "List the stored sessions: id, steps, last update and head node.")
	if _, err := fs.parse(args, 0, 0); err != nil {
		return err
	}
	st, _, err := fs.openStore()
	if err != nil {
		return err
	}
	ids, err := st.Sessions(ctx)
	if err != nil {
		return fmt.Errorf("list sessions: %w", err)
	}
	rows := make([]sessionRow, 0, len(ids))
	for _, id := range ids {
		h, err := head(ctx, st, id)
		if err != nil {
			return err
		}
		n, err := st.Node(ctx, h)
		if err != nil {
			return sessionErr(id, err)
		}
		rows = append(rows, sessionRow{ID: id, Steps: n.Record.Step, Head: h.String(), Updated: n.Record.Signal.When().Time()})
	}
	if fs.json {
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
	fmt.Fprintln(tw, "SESSION\tSTEPS\tUPDATED\tHEAD")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", r.ID, r.Steps, r.Updated.Format(time.DateTime), r.Head[:12])
	}
	return tw.Flush()
}
