package wire

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
)

const ndjsonType = "application/x-ndjson"

// TestAChainedNDJSONStreamResumesThroughItsChain: a chained post's
// NDJSON stream (the rest of the run its decision resumed, then the run
// its message started or steered) cut after any of its events and
// resumed from that event's seq, with the chain its Baton-Chain header
// names, gives the rest of the whole stream, once: the resumed stream
// stopped at the first run's end, and the reply to the client's message
// was lost. A stream resumed so is cut and resumed again, from its own
// header.
func TestAChainedNDJSONStreamResumesThroughItsChain(t *testing.T) {
	for _, c := range chainCases {
		t.Run(c.name, func(t *testing.T) {
			s, a := chainedPost(t, c.steered, c.other, ndjsonType)
			events := readNDJSON(t, a.body)
			if !startsAnotherRun(events) {
				t.Fatalf("the post's stream chains no second run:\n%s", a.body)
			}
			chain := a.header.Get(chainHeader)
			if chain == "" {
				t.Errorf("the chained stream has no %s header", chainHeader)
			}
			want := eventLines(events)
			cuts := 0
			for i, ev := range events {
				id, ok := ndjsonID(ev)
				if !ok {
					continue
				}
				cuts++
				resumed, again := resumeNDJSON(t, s, id+chain)
				got := eventLines(append(events[:i+1:i+1], resumed...))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("resumed from %q: mismatch (-whole stream +cut and resumed):\n%s", id+chain, diff)
				}
				if len(resumed) < 2 {
					continue
				}
				// Cut again halfway through the resumed stream.
				j := len(resumed) / 2
				id, ok = ndjsonID(resumed[j])
				if !ok {
					continue
				}
				last, _ := resumeNDJSON(t, s, id+again)
				got = eventLines(append(append(events[:i+1:i+1], resumed[:j+1]...), last...))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("resumed from %q, then from %q: mismatch (-whole stream +cut and resumed):\n%s", id+chain, id+again, diff)
				}
			}
			if cuts < 4 {
				t.Fatalf("the stream has %d events to resume from, want more:\n%s", cuts, a.body)
			}
		})
	}
}

// TestAnNDJSONStreamResumesFromABareSeq: a client that resumes an
// unchained NDJSON stream from an event's seq alone gets the rest of
// the stream up to its run's end, as before a stream's ids could carry
// a chain.
func TestAnNDJSONStreamResumesFromABareSeq(t *testing.T) {
	s, a := chainedPost(t, chainCases[0].steered, false, ndjsonType)
	events := readNDJSON(t, a.body)
	first := events[0].RunID
	end := -1
	for i, ev := range events {
		if ev.Kind == contract.EvRunSettled && ev.RunID == first {
			end = i
			break
		}
	}
	if end < 1 {
		t.Fatalf("the stream has no end of its first run %s:\n%s", first, a.body)
	}
	id, _ := ndjsonID(events[0])
	resumed, chain := resumeNDJSON(t, s, id)
	if diff := cmp.Diff(eventLines(events[1:end+1]), eventLines(resumed)); diff != "" {
		t.Errorf("resumed from %q: mismatch (-first run's rest +resumed):\n%s", id, diff)
	}
	if chain != "" {
		t.Errorf("a stream resumed from a bare seq names the chain %q, want none", chain)
	}
}

// readNDJSON reads a stream's events.
func readNDJSON(t *testing.T, body string) []contract.RunEvent {
	t.Helper()
	var out []contract.RunEvent
	for ev, err := range ledger.ReadJSONL(strings.NewReader(body)) {
		if err != nil {
			t.Fatalf("%v:\n%s", err, body)
		}
		out = append(out, ev)
	}
	return out
}

// startsAnotherRun reports whether events start a run of the thread's
// own other than the one they begin in.
func startsAnotherRun(events []contract.RunEvent) bool {
	for _, ev := range events {
		if ev.Kind == contract.EvRunStarted && len(ev.Subflow) == 0 && ev.RunID != events[0].RunID {
			return true
		}
	}
	return false
}

// ndjsonID is the Last-Event-ID a client resumes from after ev, and
// whether ev has one: a delegate's events and lag notices have none.
func ndjsonID(ev contract.RunEvent) (string, bool) {
	if len(ev.Subflow) > 0 || ev.Kind == contract.EvLag {
		return "", false
	}
	id := strconv.FormatUint(ev.Seq, 10)
	if ev.Delta > 0 {
		id += "." + strconv.FormatUint(uint64(ev.Delta), 10)
	}
	return id, true
}

// eventLines renders events for comparison.
func eventLines(events []contract.RunEvent) []string {
	var out []string
	for _, ev := range events {
		out = append(out, fmt.Sprintf("%d.%d %s %s %q", ev.Seq, ev.Delta, ev.RunID, ev.Kind, ev.Text))
	}
	return out
}

// resumeNDJSON resumes thread c1's NDJSON stream from last, and returns
// its events and the chain its header names.
func resumeNDJSON(t *testing.T, s *flowServer, last string) ([]contract.RunEvent, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.srv.URL+"?threadId=c1", nil)
	req.Header.Set("Accept", ndjsonType)
	req.Header.Set("Last-Event-ID", last)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("resume from %q: %d %v\n%s", last, resp.StatusCode, err, b)
	}
	return readNDJSON(t, string(b)), resp.Header.Get(chainHeader)
}

// TestAChainedNDJSONIDPastTheChainResumesAsABareOne: a client of a
// chained NDJSON stream appends the stream's chain to whatever event it
// resumes from; from an event of the chain's last run, which has ended
// and been followed by another run, it gets what the bare id gives: the
// rest of that run. The stream went on, past the run's end, into the
// next run, which was not the client's.
func TestAChainedNDJSONIDPastTheChainResumesAsABareOne(t *testing.T) {
	s, a := chainedPost(t, chainCases[0].steered, false, ndjsonType)
	events := readNDJSON(t, a.body)
	chain := a.header.Get(chainHeader)
	start := -1
	for i, ev := range events {
		if ev.Kind == contract.EvRunStarted && ev.RunID != events[0].RunID {
			start = i
		}
	}
	if start < 0 || chain == "" {
		t.Fatalf("the post's stream chains no second run (chain %q):\n%s", chain, a.body)
	}
	// The chain's last run is let go on to its end, and another run
	// starts after it.
	user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
	yes := map[string]any{"id": "t1", "role": "tool", "toolCallId": "d1", "content": "yes"}
	u2 := map[string]any{"id": "u2", "role": "user", "content": "and tidy up"}
	yes2 := map[string]any{"id": "t2", "role": "tool", "toolCallId": "d2", "content": "yes"}
	if code, b := post(t, s.srv.URL, aguiBody("c1", []map[string]any{user, yes, u2, yes2})); code != http.StatusOK || !strings.Contains(b, "RUN_FINISHED") {
		t.Fatalf("decision on d2: %d, want the run's end:\n%s", code, b)
	}
	u3 := map[string]any{"id": "u3", "role": "user", "content": "once more"}
	if code, b := post(t, s.srv.URL, aguiBody("c1", []map[string]any{user, yes, u2, yes2, u3})); code != http.StatusOK || !strings.Contains(b, "d3") {
		t.Fatalf("next run: %d, want the approval request of d3:\n%s", code, b)
	}
	from, _ := ndjsonID(events[start])
	rest, _ := resumeNDJSON(t, s, from)
	for _, ev := range append([]contract.RunEvent{events[start]}, rest...) {
		id, ok := ndjsonID(ev)
		if !ok {
			continue
		}
		bare, _ := resumeNDJSON(t, s, id)
		chained, again := resumeNDJSON(t, s, id+chain)
		if diff := cmp.Diff(eventLines(bare), eventLines(chained)); diff != "" {
			t.Errorf("resumed from %q: mismatch (-from %q +from %q):\n%s", id+chain, id, id+chain, diff)
		}
		if again != "" {
			t.Errorf("resumed from %q, past the chain: names the chain %q, want none", id+chain, again)
		}
	}
}
