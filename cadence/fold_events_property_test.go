package cadence_test

import (
	"encoding/json"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/cadence/cadencetest"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestFoldPublishesWhatTheLiveRunPublished steps a session as the
// conductor does (one Scratch, pending calls changed in place), sends
// each record through the store's encoding, and folds the decoded
// records: every step must publish the very events the live step did,
// field for field, since a host that resumes a stream or prints a log
// shows the folded ones in their place.
func TestFoldPublishesWhatTheLiveRunPublished(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := cadencetest.Config().Draw(t, "config")
		rules := cadence.New(cfg)
		sc := cadence.Scratch{PendingInPlace: true}
		live := cadence.InitialSnapshot("session")
		var records []contract.Record
		var published [][]string
		for range rapid.IntRange(1, 60).Draw(t, "signals") {
			// The generator reads a snapshot of its own: the live one's
			// pending calls change in place.
			seen := live
			seen.Pending = append([]contract.PendingCall(nil), live.Pending...)
			sig := cadencetest.Signal(cfg, seen).Draw(t, "signal")
			effects, err := rules.AdvanceIn(&sc, &live, sig)
			if err != nil {
				continue
			}
			// The events as a subscriber kept them when they were
			// published, before the Scratch served another step.
			published = append(published, eventsJSON(t, effects))
			records = append(records, throughStore(t, effects[0].(*contract.Persist).Record))
		}
		step := 0
		for f, err := range rules.Steps(cadence.InitialSnapshot("session"), records) {
			if err != nil {
				t.Fatalf("fold: %v", err)
			}
			if diff := cmp.Diff(published[step], eventsJSON(t, f.Effects)); diff != "" {
				t.Fatalf("step %d (%s) published other events when folded (-live +folded):\n%s", f.Record.Step, f.Record.Signal.SignalKind(), diff)
			}
			step++
		}
		if step != len(records) {
			t.Fatalf("folded %d of %d records", step, len(records))
		}
	})
}

func eventsJSON(t *rapid.T, effects []contract.Effect) []string {
	var out []string
	for _, e := range effects {
		if p, ok := e.(*contract.Publish); ok {
			b, err := json.Marshal(p.Event)
			if err != nil {
				t.Fatalf("encode event: %v", err)
			}
			out = append(out, string(b))
		}
	}
	return out
}

func throughStore(t *rapid.T, rec contract.Record) contract.Record {
	b, err := contract.EncodeRecord(rec)
	if err != nil {
		t.Fatalf("encode record %d: %v", rec.Step, err)
	}
	got, err := contract.DecodeRecord(b)
	if err != nil {
		t.Fatalf("decode record %d: %v", rec.Step, err)
	}
	return got
}
