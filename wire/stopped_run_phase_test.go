package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// endPhases returns the phases a stream's body says its run ended in:
// AG-UI's STATE_SNAPSHOT's and the AI SDK's finish metadata's.
func endPhases(t *testing.T, body string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(body, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var ev struct {
			Type     string `json:"type"`
			Snapshot struct {
				Phase string `json:"phase"`
			} `json:"snapshot"`
			Metadata struct {
				Phase string `json:"phase"`
			} `json:"messageMetadata"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		switch ev.Type {
		case "STATE_SNAPSHOT":
			out = append(out, ev.Snapshot.Phase)
		case "finish":
			out = append(out, ev.Metadata.Phase)
		}
	}
	return out
}

// TestAStreamEndedByTheStoresFailureTellsTheStoredPhase: the run whose
// records the store refused ends its stream with the protocol's error,
// but its state says the phase the store still has it in, in flight,
// for whoever resumes it, not faulted: no fault was ever recorded.
func TestAStreamEndedByTheStoresFailureTellsTheStoredPhase(t *testing.T) {
	cases := []struct {
		name, query string
		body        func(thread string) string
	}{
		{"ag-ui", "", func(id string) string {
			return aguiBody(id, []map[string]any{{"id": "m1", "role": "user", "content": "one"}})
		}},
		{"ai-sdk", "?protocol=ai-sdk", func(id string) string { return chatBody(id, "one") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The store failed appending the model's reply: it still has
			// the run waiting on its model.
			body, _ := streamThroughStoreFailure(t, tc.query, "", tc.body("t1"))
			if diff := cmp.Diff([]string{string(contract.PhaseAwaitingModel)}, endPhases(t, body)); diff != "" {
				t.Errorf("the phases the stream ended in (-want +got):\n%s\n%s", diff, body)
			}
		})
	}
}
