package wire

import "testing"

// FuzzDecodeRunAgentInput: no request body panics the decoder, and what
// it accepts yields turns (or a clear error) without panicking.
func FuzzDecodeRunAgentInput(f *testing.F) {
	f.Add([]byte(`{"threadId":"t1","runId":"r1","messages":[{"id":"m1","role":"user","content":"hello"}],"tools":[],"context":[],"state":{},"forwardedProps":{}}`))
	f.Add([]byte(`{"threadId":"t1","messages":[{"id":"a","role":"assistant","content":"x","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"b","role":"tool","toolCallId":"c","content":"y"},{"id":"u","role":"user","content":"z"}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := DecodeRunAgentInput(b)
		if err != nil {
			return
		}
		_, _ = in.NewTurns()
	})
}
