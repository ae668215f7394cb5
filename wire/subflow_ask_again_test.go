package wire

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
)

// TestStreamShowsADelegatesSecondQuestionUnderAReusedCallID: call ids
// are unique within a turn only (the runtime renames duplicates inside
// one reply, not across turns), so a delegate's model may ask a person
// again in a later turn under the id of a question already answered. The
// stream took the second question for a copy of the first (ask keys by
// path and call id) and skipped it: the client never saw it, and the run
// waited on a question no one was shown.
func TestStreamShowsADelegatesSecondQuestionUnderAReusedCallID(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/", nil)
	req.Header.Set("Accept", "application/x-ndjson")
	s := newStreamer(rec, req, &thread{id: "t"}, ProtocolAGUI)
	call := &contract.ToolCall{ID: "q1", Name: "ask_human"}
	sub := []string{"c1"}
	for _, ev := range []contract.RunEvent{
		{Kind: contract.EvQuestionAsked, Seq: 3, Subflow: sub, Call: call},
		{Kind: contract.EvQuestionAnswered, Seq: 4, Subflow: sub, Call: call},
		{Kind: contract.EvToolResult, Seq: 5, Subflow: sub, Call: call},
		{Kind: contract.EvQuestionAsked, Seq: 8, Subflow: sub, Call: call},
	} {
		if err := s.emit(ev); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(rec.Body.String(), `"question_asked"`); n != 2 {
		t.Errorf("%d of the delegate's 2 questions streamed:\n%s", n, rec.Body.String())
	}
}

// TestStreamShowsADelegatesQuestionOnceFromHistoryAndLog: the copy of a
// question the log brings after the history showed it is still skipped.
func TestStreamShowsADelegatesQuestionOnceFromHistoryAndLog(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/", nil)
	req.Header.Set("Accept", "application/x-ndjson")
	s := newStreamer(rec, req, &thread{id: "t"}, ProtocolAGUI)
	ask := contract.RunEvent{Kind: contract.EvQuestionAsked, Seq: 3, Subflow: []string{"c1"}, Call: &contract.ToolCall{ID: "q1", Name: "ask_human"}}
	for _, ev := range []contract.RunEvent{ask, ask} {
		if err := s.emit(ev); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(rec.Body.String(), `"question_asked"`); n != 1 {
		t.Errorf("the delegate's question streamed %d times, want once:\n%s", n, rec.Body.String())
	}
}
