package agui

import (
	"errors"
	"testing"
)

// FuzzDecodeInput: no request body panics the decoder, every refusal
// wraps ErrBadInput, and what it accepts names a thread and carries new
// user turns, each with text, or the answers of trailing tool messages,
// each for a call, or both: the answers of the tool messages right
// before the turns.
func FuzzDecodeInput(f *testing.F) {
	f.Add([]byte(`{"threadId":"t1","runId":"r1","messages":[{"id":"m1","role":"user","content":"hello"}],"tools":[],"context":[],"state":{},"forwardedProps":{}}`))
	f.Add([]byte(`{"threadId":"t1","messages":[{"id":"a","role":"assistant","content":"x","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"b","role":"tool","toolCallId":"c","content":"y"},{"id":"u","role":"user","content":"z"}]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"threadId":"t1","messages":[{"id":"m1","role":"user","content":null}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := DecodeInput(b, true)
		if err != nil {
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("error %v does not wrap ErrBadInput", err)
			}
			return
		}
		if in.ThreadID == "" || len(in.Turns) == 0 && len(in.Answers) == 0 {
			t.Fatalf("accepted %q as %+v", b, in)
		}
		for _, turn := range in.Turns {
			if turn.Text() == "" {
				t.Fatalf("accepted %q with a user turn of no text: %+v", b, in)
			}
		}
		for _, a := range in.Answers {
			if a.CallID == "" {
				t.Fatalf("accepted %q with an answer for no call: %+v", b, in)
			}
		}
	})
}
