package wire

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/wire/aisdk"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

func TestUIStreamSkipsATurnJoinedMidway(t *testing.T) {
	rec := httptest.NewRecorder()
	s := newStreamer(rec, httptest.NewRequest("POST", "/", nil), nil, "thread-1", ProtocolAISDK)
	events := wt.LiveRun()
	// Joined after the first turn's second delta: that turn comes whole
	// from its completion, the next turn's deltas stream.
	for _, e := range append(events[:1:1], events[2:]...) {
		if err := s.emit(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.done(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(aisdk.StreamVersion, rec.Header().Get(aisdk.StreamHeader)); diff != "" {
		t.Errorf("header mismatch (-want +got):\n%s", diff)
	}
	body := rec.Body.String()
	for _, want := range []string{`"delta":"need the tool"`, `"delta":"Let me check."`, `"delta":"It is 18C."`, "data: [DONE]\n\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s in\n%s", want, body)
		}
	}
	if strings.Contains(body, `"delta":"Let me "`) || strings.Contains(body, "tool-input-delta") {
		t.Errorf("deltas of the joined turn were written:\n%s", body)
	}
}
