package contract

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// envelopeByStruct is how envelopes were encoded before encodeEnvelope
// wrote the fields itself: the body marshalled, then the envelope struct
// with the body as a RawMessage. Recorded sessions hold these bytes.
func envelopeByStruct(env envelope, body any) ([]byte, error) {
	b, err := marshal(body)
	if err != nil {
		return nil, err
	}
	env.Body = b
	return marshal(env)
}

// encodeEnvelope writes exactly the bytes the envelope struct marshals
// to, whatever the strings hold (escapes, HTML, invalid UTF-8, U+2028).
func TestEnvelopeBytesUnchanged(t *testing.T) {
	text := rapid.OneOf(rapid.String(), rapid.SampledFrom([]string{"", "<a&b>", "line\nbreak\t\"q\"\\", "\u2028\u2029", "bad \xff utf-8", "\x00\x1f", "tool_settled", "publish tool_settled#3; run_tool c1 echo", "~ \x7f"}))
	rapid.Check(t, func(t *rapid.T) {
		env := envelope{V: rapid.IntRange(0, 3).Draw(t, "v"), Step: rapid.Uint64().Draw(t, "step"), Kind: text.Draw(t, "kind"), Effect: text.Draw(t, "effects")}
		if rapid.Bool().Draw(t, "no step") {
			env.Step = 0
		}
		body := ToolSettled{CallID: text.Draw(t, "call"), Outcome: ToolOutcome{Content: text.Draw(t, "content")}, Tokens: rapid.IntRange(0, 9).Draw(t, "tokens")}
		want, err := envelopeByStruct(env, body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeEnvelope(env, body)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			t.Fatalf("bytes differ:\nwant %s\ngot  %s", want, got)
		}
	})
}
