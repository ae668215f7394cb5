package wire

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// work is a message the model works on, long enough for a summary of it
// to shrink the history.
var work = "work on " + strings.Repeat("this and that, ", 100)

// A message whose run compacted the history, condensing the message
// itself into a summary, is still the message its run took: posted
// again, here or after a restart, it gets that run's outcome, and the
// model is not called again. The thread knew the message only from its
// turn in the history, so the compacted message ran a second time.
func TestARepostedMessageCompactedAwayGetsItsRunsOutcome(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			s := newCompactingRepostServer(t, proto, contract.CompactionPolicy{MaxMessages: 3, KeepRecent: 1})
			first := s.post(s.body([2]string{"m1", work}))
			if first.Code != http.StatusOK || !first.Ended || first.Failed {
				t.Fatalf("first post: %+v", first)
			}
			calls := s.calls.Load()
			if texts := s.userTexts(); len(texts) == 0 || texts[0] == work {
				t.Fatalf("the run did not condense its message: user turns %q", texts)
			}
			for _, when := range []string{"at once", "after a restart"} {
				if when == "after a restart" {
					s.restart()
				}
				again := s.post(s.body([2]string{"m1", work}))
				if again.Code != http.StatusOK || again.RunID != first.RunID {
					t.Errorf("posted again %s: %+v, want the stream of run %q", when, again, first.RunID)
				}
				if n := s.calls.Load(); n != calls {
					t.Errorf("posted again %s: %d model calls, want %d", when, n, calls)
				}
			}
			next := s.post(s.body([2]string{"m1", work}, [2]string{"m2", "hi"}))
			if diff := cmp.Diff(posted{Code: http.StatusOK, RunID: next.RunID, Text: "reply to hi", Ended: true}, next); diff != "" || next.RunID == first.RunID {
				t.Errorf("a new message: answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
