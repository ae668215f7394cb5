package conductor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

type forecast struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
	Note  string  `json:"note,omitempty"`
}

func forecastConfig(t *testing.T, retries int) contract.AgentConfig {
	t.Helper()
	out, err := conductor.OutputOf[forecast]("forecast")
	if err != nil {
		t.Fatal(err)
	}
	out.MaxRetries = retries
	return contract.AgentConfig{Model: "m", Output: out}
}

// TestStructuredOutput: answers that are not JSON, or JSON of the wrong
// shape, go back to the model with the reason; the good one settles the
// run and decodes into the Go type; the session replays.
func TestStructuredOutput(t *testing.T) {
	model := scripted.New(
		scripted.Reply{Text: "It is cold in Oslo."},
		scripted.Reply{Text: `{"city":"Oslo"}`},
		scripted.Reply{Text: "```json\n{\"city\":\"Oslo\",\"temp_c\":-3}\n```"},
	)
	cfg := forecastConfig(t, 0)
	st := store.NewMemory()
	deps := testDeps(model, nil)
	deps.Env.Store = st
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("weather in Oslo?"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := conductor.Output[forecast](snap)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(forecast{City: "Oslo", TempC: -3}, got); diff != "" {
		t.Errorf("answer mismatch (-want +got):\n%s", diff)
	}
	var notes []string
	for _, turn := range snap.History.Turns() {
		if turn.Mark == contract.MarkOutputRetry {
			notes = append(notes, turn.Text())
		}
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "not JSON") || !strings.Contains(notes[1], "temp_c") {
		t.Errorf("retry notes %q", notes)
	}
	if err := store.Replay(ctxT(t), st, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}

// TestStructuredOutputFaults: past the retries the run faults with kind
// output, and Output says there is no answer.
func TestStructuredOutputFaults(t *testing.T) {
	a := newAgent(t, forecastConfig(t, 1), testDeps(scripted.Repeat(scripted.Reply{Text: "no idea"}, 0), nil))
	snap, err := a.Submit(ctxT(t), conductor.Text("weather?"))
	if !errors.Is(err, contract.ErrOutput) || snap.Phase != contract.PhaseFaulted {
		t.Fatalf("err %v, phase %s; want kind output", err, snap.Phase)
	}
	if snap.RunUsage.ModelCalls != 2 {
		t.Errorf("%d model calls, want 2 (one retry)", snap.RunUsage.ModelCalls)
	}
	if _, err := conductor.Output[forecast](snap); !errors.Is(err, conductor.ErrNoAnswer) || !errors.Is(err, contract.ErrOutput) {
		t.Errorf("Output: %v", err)
	}
}

func TestStructuredOutputBadSchema(t *testing.T) {
	cfg := contract.AgentConfig{Model: "m", Output: &contract.OutputSchema{Name: "bad name", Schema: []byte(`{"type":"string"}`)}}
	_, err := conductor.CreateAgent(cfg, testDeps(scripted.New(), nil))
	re, ok := contract.AsRunError(err)
	if !ok || re.Kind != contract.KindConfig {
		t.Fatalf("error %v, want a config error", err)
	}
	var fields []string
	for _, f := range re.Fields {
		fields = append(fields, f.Field)
	}
	if diff := cmp.Diff([]string{"Output.Name", "Output.Schema"}, fields); diff != "" {
		t.Errorf("fields mismatch (-want +got):\n%s", diff)
	}
}
