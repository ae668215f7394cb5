package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// resumeNote says what going on with a session will do first when it has
// a run in flight (the process driving it ended mid-run): which tools run
// again, which report an interruption to the model, which approvals are
// asked again. It is empty when no run is in flight.
func resumeNote(ctx context.Context, st store.Store, id string) string {
	records, err := st.Records(ctx, id)
	if err != nil {
		return ""
	}
	snap, err := replayRules().Fold(cadence.InitialSnapshot(id), records)
	if err != nil || !snap.Phase.InFlight() {
		return ""
	}
	var parts []string
	for _, p := range snap.Pending {
		name := safeLine(p.Call.Name)
		switch {
		case p.State == contract.CallDone:
		case p.State == contract.CallStarted && !p.Tool.Idempotent:
			parts = append(parts, name+" was interrupted and is reported to the model as such")
		case p.State == contract.CallStarted:
			parts = append(parts, name+" runs again")
		case p.State == contract.CallAwaitingApproval:
			parts = append(parts, name+" asks for approval again")
		default:
			parts = append(parts, name+" runs")
		}
	}
	parts = append(parts, "then the model goes on")
	return fmt.Sprintf("baton: session %s stopped mid-run (%s); finishing that run first: %s.", safeLine(id), snap.Phase, strings.Join(parts, "; "))
}
