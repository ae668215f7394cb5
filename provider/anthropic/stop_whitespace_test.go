package anthropic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWhitespaceStopSequencesLeftOut: the Messages API refuses the whole
// request when a stop sequence is only whitespace ("stop_sequences: each
// stop sequence must contain non-whitespace"), while Sampling, shared
// with OpenAI where "\n\n" is a common stop, lets one through. Such a
// sequence cannot be honoured here and must not fail every call.
func TestWhitespaceStopSequencesLeftOut(t *testing.T) {
	req := basicRequest()
	req.Sampling.Stop = []string{"\n\n", "END", " \t"}
	got := sentOptions(t, req)["stop_sequences"]
	seqs, _ := got.([]any)
	for _, s := range seqs {
		if str, _ := s.(string); strings.TrimSpace(str) == "" {
			t.Fatalf("sent stop_sequences %q: the API refuses a whitespace-only stop sequence", seqs)
		}
	}
	if diff := cmp.Diff([]any{"END"}, got); diff != "" {
		t.Errorf("stop_sequences mismatch (-want +got):\n%s", diff)
	}
}
