package aisdk

import (
	"errors"
	"testing"
)

// FuzzDecodeInput checks that no body makes the decoder panic, that every
// refusal wraps ErrBadInput, and that accepted input is one user turn with
// text.
func FuzzDecodeInput(f *testing.F) {
	f.Add([]byte(`{"id":"c1","trigger":"submit-message","messages":[{"id":"u1","role":"user","parts":[{"type":"step-start"},{"type":"text","text":"hi"}]}]}`))
	f.Add([]byte(`{"id":"x","messages":[{"id":"a","role":"assistant","parts":[]}]}`))
	f.Add([]byte(`{"id":"x","messages":[{"role":"user","parts":[{"type":"text"}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := DecodeInput(b)
		if err != nil {
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("error %v does not wrap ErrBadInput", err)
			}
			return
		}
		if in.ChatID == "" || len(in.Turns) != 1 || in.Turns[0].Role != "user" || in.Turns[0].Text() == "" {
			t.Fatalf("accepted %q as %+v", b, in)
		}
	})
}
