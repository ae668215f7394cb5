package ledger

import (
	"bytes"
	"testing"

	"github.com/batonrt/baton/contract"
)

// FuzzReadJSONL: no input panics the reader; every event it yields
// writes back to a line it reads again as the same event.
func FuzzReadJSONL(f *testing.F) {
	line, _ := contract.EncodeEvent(contract.RunEvent{Seq: 1, SessionID: "s", RunID: "r", Kind: contract.EvTextDelta, Text: "hi"})
	f.Add(append(line, '\n'))
	f.Add([]byte("{\"seq\":2,\"session_id\":\"s\",\"at\":0,\"kind\":\"run_settled\"}\n\nnot json\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for ev, err := range ReadJSONL(bytes.NewReader(b)) {
			if err != nil {
				continue
			}
			var buf bytes.Buffer
			JSONLSink(&buf)(ev)
			for back, err := range ReadJSONL(&buf) {
				if err != nil {
					t.Fatalf("an event read back fails: %v", err)
				}
				a, _ := contract.EncodeEvent(ev)
				c, _ := contract.EncodeEvent(back)
				if !bytes.Equal(a, c) {
					t.Fatalf("round trip changed the event:\n%s\n%s", a, c)
				}
			}
		}
	})
}
