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

// The hand-written bodies are byte for byte what encoding/json writes,
// for arbitrary values of every field: a field added to these types and
// not to appendBody makes the two differ.
func TestHandWrittenBodiesUnchanged(t *testing.T) {
	check := func(t *rapid.T, body any) {
		want, err := marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendBody(nil, body)
		if !ok {
			t.Fatalf("%T is not written by hand", body)
		}
		if !bytes.Equal(want, got) {
			t.Fatalf("bytes differ:\nwant %s\ngot  %s", want, got)
		}
	}
	t.Run("model_replied", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) { check(t, rapid.Make[ModelReplied]().Draw(t, "signal")) })
	})
	t.Run("tool_settled", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) { check(t, rapid.Make[ToolSettled]().Draw(t, "signal")) })
	})
	t.Run("empty", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			check(t, ModelReplied{})
			check(t, ModelReplied{Reply: Turn{Blocks: []Block{}}, Keys: []CallKeys{{}}, RewrittenBy: []string{}})
			check(t, ToolSettled{RewrittenBy: []string{}})
		})
	})
}

// Strings are quoted as encoding/json quotes them with HTML escaping off,
// whatever bytes they hold.
func TestAppendJSONStringUnchanged(t *testing.T) {
	odd := rapid.SampledFrom([]string{"<a&b>", "\u2028\u2029", "\xff", "\xe2\x80", "\x00\x1f\x7f", "\b\f\n\r\t", `"\`, "é", "\U0001F600", "\ufffd"})
	rapid.Check(t, func(t *rapid.T) {
		var s []byte
		for range rapid.IntRange(0, 8).Draw(t, "parts") {
			if rapid.Bool().Draw(t, "bytes") {
				s = append(s, rapid.SliceOfN(rapid.Byte(), 0, 6).Draw(t, "raw")...)
			} else {
				s = append(s, odd.Draw(t, "odd")...)
			}
		}
		want, err := marshal(string(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, string(s)); !bytes.Equal(want, got) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
