package agui

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// TestResponseFieldsLeftOut: what a provider said of a reply (the model
// that answered, the reply's id) is telemetry the store does not keep,
// so a run projected live and again from the store would differ if the
// projection carried it. A turn_completed with them projects as one
// without.
func TestResponseFieldsLeftOut(t *testing.T) {
	project := func(events []contract.RunEvent) []Event {
		p := NewProjector("thread-1")
		var out []Event
		for _, e := range events {
			out = append(out, p.Project(e)...)
		}
		return out
	}
	plain := wt.LiveRun()
	said := wt.LiveRun()
	for i := range said {
		if said[i].Kind == contract.EvTurnCompleted {
			said[i].ResponseModel, said[i].ResponseID = "gpt-4o-2024-08-06", "chatcmpl-1"
		}
	}
	if diff := cmp.Diff(project(plain), project(said)); diff != "" {
		t.Errorf("projection mismatch (-without +with):\n%s", diff)
	}
}
