package turntest

import (
	"fmt"
	"testing"

	"github.com/batonrt/baton/turn"
)

// responseFirst returns why the attempts break the rule on ChunkResponse,
// one sentence per break: at most one in a stream, before its first
// content chunk and its stop. A reply has one model and one id, which the
// APIs report in their first frame, so a second one, or one that comes
// once the reply is under way, is a decoder reading a later frame as a
// new reply.
func responseFirst(attempts [][]turn.Chunk) []string {
	var why []string
	for i, chunks := range attempts {
		n := 0
		var after turn.ChunkKind
		for _, c := range chunks {
			switch c.Kind {
			case turn.ChunkResponse:
				n++
				if n == 2 {
					why = append(why, fmt.Sprintf("attempt %d streamed a second response chunk (%q, %q): a reply has one model and one id, said once", i+1, c.Name, c.Text))
				}
				if after != "" {
					why = append(why, fmt.Sprintf("attempt %d streamed its response chunk (%q, %q) after a %s chunk: it comes before the reply's first content chunk and its stop", i+1, c.Name, c.Text, after))
				}
			case turn.ChunkUsage:
			default:
				if after == "" {
					after = c.Kind
				}
			}
		}
	}
	return why
}

// wantResponse checks that the reply's Response names the model and the
// id the stream said, and that the successful attempt said them once.
func wantResponse(t *testing.T, o outcome) {
	t.Helper()
	if o.resp.Model != ResponseModel || o.resp.ID != ResponseID {
		t.Errorf("turntest: response model %q id %q, want %q and %q: the provider drops what the API said of its reply, which hosts trace as gen_ai.response.model and gen_ai.response.id", o.resp.Model, o.resp.ID, ResponseModel, ResponseID)
	}
	if len(o.attempts) == 0 {
		return
	}
	n := 0
	for _, c := range o.attempts[len(o.attempts)-1] {
		if c.Kind == turn.ChunkResponse {
			n++
		}
	}
	if n != 1 {
		t.Errorf("turntest: the reply's stream held %d response chunks, want exactly one", n)
	}
}
