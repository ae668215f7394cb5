package aisdk

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// A model call retried mid-stream: the broken attempt's open parts are
// closed (a half-streamed call becomes an input error) and the retried
// reply streams into new parts, so the client never shows "HelHello".
func TestUIMessageRetriedModelCallDoesNotGlueParts(t *testing.T) {
	p := NewProjector("t")
	ev := func(seq uint64, delta uint32, kind contract.EventKind, text string) contract.RunEvent {
		return contract.RunEvent{Seq: seq, Delta: delta, SessionID: "t", RunID: "r", Kind: kind, Text: text}
	}
	done := ev(2, 0, contract.EvTurnCompleted, "")
	done.Turn = &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Hello")}}
	half := ev(1, 2, contract.EvToolCallDelta, `{"ci`)
	half.Call = &contract.ToolCall{ID: "c1", Name: "get_weather"}
	var chunks []Chunk
	for _, e := range []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted, ""),
		ev(1, 1, contract.EvTextDelta, "Hel"),
		half,
		ev(1, 3, contract.EvModelRetry, "stream broken"),
		ev(1, 4, contract.EvTextDelta, "Hello"),
		done,
		ev(3, 0, contract.EvRunSettled, ""),
	} {
		chunks = append(chunks, p.Project(e)...)
	}
	texts := map[string]string{}
	open := map[string]bool{}
	var order []string
	inputErrors := 0
	for _, c := range chunks {
		switch c.Type {
		case TextStart:
			open[c.ID] = true
			order = append(order, c.ID)
		case TextDelta:
			if !open[c.ID] {
				t.Fatalf("delta for part %s that is not open", c.ID)
			}
			texts[c.ID] += c.Delta
		case TextEnd:
			open[c.ID] = false
		case ToolInputError:
			inputErrors++
		}
	}
	if len(order) != 2 {
		t.Fatalf("want the broken and the retried text parts, got %v", order)
	}
	if diff := cmp.Diff([]string{"Hel", "Hello"}, []string{texts[order[0]], texts[order[1]]}); diff != "" {
		t.Errorf("part texts mismatch (-want +got):\n%s", diff)
	}
	for id, o := range open {
		if o {
			t.Errorf("part %s left open", id)
		}
	}
	if inputErrors != 1 {
		t.Errorf("the half-streamed call should end as one input error, got %d", inputErrors)
	}
}
