package turn_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestRepeatedCallIDsMadeDistinct: some compatible servers (DeepSeek,
// GLM, Kimi) give parallel calls of one reply the same id. The scheduler
// refuses the second call as a duplicate, and the next request, whose
// results share an id, is refused by the API. The first call keeps its
// id and the others get ids of their own, which their deltas show too.
func TestRepeatedCallIDsMadeDistinct(t *testing.T) {
	reply, r := replyOf(t, []turn.Chunk{
		callStart(0, "call_0", "get_weather"), callArgs(0, `{"city":"Oslo"}`), callEnd(0),
		callStart(1, "call_0", "get_weather"), callArgs(1, `{"city":"Bergen"}`), callEnd(1),
		callStart(2, "call_0_2", "search"), callArgs(2, `{}`), callEnd(2),
		callStart(3, "call_0", "search"), callArgs(3, `{}`), callEnd(3),
		stop(contract.StopToolUse),
	})
	var ids []string
	for _, c := range reply.Reply.Calls() {
		ids = append(ids, c.ID)
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if seen[id] || id == "" {
			t.Fatalf("call ids %q: call %d's is not its own", ids, i)
		}
		seen[id] = true
	}
	if ids[0] != "call_0" {
		t.Errorf("call ids %q: the first call of an id should keep it", ids)
	}
	shown := map[int]string{}
	for _, ev := range r.events {
		if ev.Kind == contract.EvToolCallDelta && ev.Call != nil {
			shown[ev.Index] = ev.Call.ID
		}
	}
	if diff := cmp.Diff(map[int]string{0: ids[0], 1: ids[1], 2: ids[2], 3: ids[3]}, shown); diff != "" {
		t.Errorf("the deltas show other ids than the reply (-reply +deltas):\n%s", diff)
	}
}

// TestMissingCallIDsLeftToTheRules: calls a server sent without ids are
// not given one here: the rules name them after the turn and the call's
// place (call_1_0, call_1_1), rather than the second taking a bare
// suffix such as "_2".
func TestMissingCallIDsLeftToTheRules(t *testing.T) {
	reply, _ := replyOf(t, []turn.Chunk{
		callStart(0, "", "get_weather"), callArgs(0, `{"city":"Oslo"}`), callEnd(0),
		callStart(1, "", "get_weather"), callArgs(1, `{"city":"Bergen"}`), callEnd(1),
		stop(contract.StopToolUse),
	})
	var ids []string
	for _, c := range reply.Reply.Calls() {
		ids = append(ids, c.ID)
	}
	if diff := cmp.Diff([]string{"", ""}, ids); diff != "" {
		t.Errorf("call ids (-want +got):\n%s", diff)
	}
}
