package wire

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
)

// A model call retried mid-stream: the client must get the model_retry
// notice, and the retried reply must not be glued onto the broken
// attempt's partial message.
func TestStreamRetriedModelCallDoesNotGlueMessages(t *testing.T) {
	rec := httptest.NewRecorder()
	s := newStreamer(rec, httptest.NewRequest("POST", "/", nil), &thread{id: "t"}, ProtocolAGUI)
	ev := func(seq uint64, delta uint32, kind contract.EventKind, text string) contract.RunEvent {
		return contract.RunEvent{Seq: seq, Delta: delta, SessionID: "t", RunID: "r", Kind: kind, Text: text}
	}
	done := ev(3, 0, contract.EvTurnCompleted, "")
	done.Turn = &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Hello")}}
	for _, e := range []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted, ""),
		ev(2, 0, contract.EvSteeringApplied, "x"),
		ev(2, 1, contract.EvTextDelta, "Hel"),
		ev(2, 2, contract.EvModelRetry, "stream broken"),
		ev(2, 3, contract.EvTextDelta, "Hello"),
		done,
		ev(4, 0, contract.EvRunSettled, ""),
	} {
		if err := s.emit(e); err != nil {
			t.Fatal(err)
		}
	}
	frames := readSSE(t, rec.Body)
	texts := map[string]string{}
	var order []string
	retried := false
	for _, f := range frames {
		switch f.Event.Type {
		case agui.TextMessageStart:
			order = append(order, f.Event.MessageID)
		case agui.TextMessageContent:
			texts[f.Event.MessageID] += f.Event.Delta
		case agui.Custom:
			retried = retried || f.Event.Name == agui.CustomModelRetry
		}
	}
	if !retried {
		t.Errorf("no %s event in %v", agui.CustomModelRetry, types(frames))
	}
	if len(order) == 0 {
		t.Fatalf("no text message in %v", types(frames))
	}
	if diff := cmp.Diff("Hello", texts[order[len(order)-1]]); diff != "" {
		t.Errorf("final message text mismatch (-want +got):\n%s", diff)
	}
}
