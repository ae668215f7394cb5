package contract

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"

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
	t.Run("submitted", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) { check(t, submittedGen().Draw(t, "signal")) })
	})
	t.Run("empty", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			check(t, ModelReplied{})
			check(t, ModelReplied{Reply: Turn{Blocks: []Block{}}, Keys: []CallKeys{{}}, RewrittenBy: []string{}})
			check(t, ToolSettled{RewrittenBy: []string{}})
			check(t, Submitted{})
			check(t, Submitted{Input: []Turn{}, Retrieved: []Turn{}, Instructions: []Instruction{}, Tools: []ToolDescriptor{}, Allowed: []string{}, Config: &AgentConfig{}})
		})
	})
}

// A record RecordAlwaysEncodes vouches for encodes whatever its fields
// hold: a store that keeps one to encode later can meet no error then.
func TestRecordAlwaysEncodes(t *testing.T) {
	signals := rapid.OneOf(
		rapid.Map(rapid.Make[ModelReplied](), func(s ModelReplied) Signal { return s }),
		rapid.Map(rapid.Make[ToolSettled](), func(s ToolSettled) Signal { return s }),
	)
	rapid.Check(t, func(t *rapid.T) {
		sig := signals.Draw(t, "signal")
		if !RecordAlwaysEncodes(sig) {
			t.Fatalf("%T is not vouched for", sig)
		}
		if _, err := AppendRecord(nil, Record{Step: rapid.Uint64().Draw(t, "step"), Signal: sig, Effects: rapid.String().Draw(t, "effects")}); err != nil {
			t.Fatalf("%T did not encode: %v", sig, err)
		}
	})
	// A submit record holds tool schemas and floats, which may not encode.
	if RecordAlwaysEncodes(Submitted{}) {
		t.Fatal("a submit record is vouched for")
	}
	if RecordAlwaysEncodes(nil) {
		t.Fatal("a record with no signal is vouched for")
	}
}

// submittedGen draws submit records: rapid.Make cannot, as a config
// holds configs (its delegates), and a schema must be JSON to encode.
func submittedGen() *rapid.Generator[Submitted] {
	turns := rapid.OneOf(rapid.Just[[]Turn](nil), rapid.SliceOfN(rapid.Make[Turn](), 0, 3))
	schema := rapid.SampledFrom([]json.RawMessage{nil, json.RawMessage(`{}`), json.RawMessage(` {"type": "object", "properties": {"q": {"type": "string"}}} `)})
	tool := rapid.Custom(func(t *rapid.T) ToolDescriptor {
		d := rapid.Make[ToolDescriptor]().Draw(t, "tool")
		d.InputSchema = schema.Draw(t, "schema")
		return d
	})
	tools := rapid.OneOf(rapid.Just[[]ToolDescriptor](nil), rapid.SliceOfN(tool, 0, 3))
	finite := rapid.OneOf(rapid.Float64Range(-1e30, 1e30), rapid.SampledFrom([]float64{0, 0.8, 1, 1e-7, 1.5e-9, 1e21, 3e25, -2e-8, 123456789}))
	config := rapid.Custom(func(t *rapid.T) *AgentConfig {
		if rapid.Bool().Draw(t, "no config") {
			return nil
		}
		c := AgentConfig{
			Model:              rapid.String().Draw(t, "model"),
			System:             rapid.String().Draw(t, "system"),
			Tools:              tools.Draw(t, "config tools"),
			MaxOutputTokens:    rapid.IntRange(-1, 9000).Draw(t, "max output"),
			Thinking:           rapid.SampledFrom([]ThinkingLevel{ThinkingOff, ThinkingLow, "odd <&>"}).Draw(t, "thinking"),
			MaxTurns:           rapid.IntRange(0, 50).Draw(t, "max turns"),
			LoopGuard:          LoopGuard{Warn: rapid.IntRange(0, 3).Draw(t, "warn"), Critical: rapid.IntRange(0, 3).Draw(t, "critical")},
			ToolConcurrency:    rapid.IntRange(0, 9).Draw(t, "concurrency"),
			ToolTimeout:        time.Duration(rapid.Int64().Draw(t, "tool timeout")),
			MaxDelegationDepth: rapid.IntRange(0, 3).Draw(t, "delegation depth"),
			Depth:              rapid.IntRange(0, 3).Draw(t, "depth"),
			FailedRuns:         rapid.SampledFrom([]FailedRunsPolicy{FailedRunsDefault, "other"}).Draw(t, "failed runs"),
			Revision:           rapid.IntRange(0, 3).Draw(t, "revision"),
		}
		if rapid.Bool().Draw(t, "compaction") {
			c.Compaction = CompactionPolicy{
				Disabled:      rapid.Bool().Draw(t, "disabled"),
				TriggerRatio:  finite.Draw(t, "ratio"),
				KeepRecent:    rapid.IntRange(0, 9).Draw(t, "keep"),
				ContextWindow: rapid.IntRange(0, 200000).Draw(t, "window"),
				MaxMessages:   rapid.IntRange(0, 9).Draw(t, "max messages"),
				MaxChars:      rapid.IntRange(0, 9).Draw(t, "max chars"),
			}
		}
		if rapid.Bool().Draw(t, "sampling") {
			temp := finite.Draw(t, "temperature")
			c.Sampling = Sampling{Temperature: &temp, Stop: rapid.SliceOfN(rapid.String(), 0, 2).Draw(t, "stop")}
		}
		if rapid.Bool().Draw(t, "delegate") {
			c.Delegates = []Delegate{{Name: "helper", Config: AgentConfig{Model: "m", Tools: tools.Draw(t, "delegate tools")}}}
		}
		if rapid.Bool().Draw(t, "output") {
			c.Output = &OutputSchema{Name: "answer", Schema: json.RawMessage(`{"type": "object"}`)}
		}
		if rapid.Bool().Draw(t, "defaults") {
			c = c.WithDefaults()
		}
		return &c
	})
	return rapid.Custom(func(t *rapid.T) Submitted {
		return Submitted{
			RunID:          rapid.String().Draw(t, "run"),
			Input:          turns.Draw(t, "input"),
			Retrieved:      turns.Draw(t, "retrieved"),
			RetrievalError: rapid.String().Draw(t, "retrieval error"),
			Instructions:   rapid.OneOf(rapid.Just[[]Instruction](nil), rapid.SliceOfN(rapid.Make[Instruction](), 0, 2)).Draw(t, "instructions"),
			Tools:          tools.Draw(t, "tools"),
			Allowed:        rapid.OneOf(rapid.Just[[]string](nil), rapid.SliceOfN(rapid.String(), 0, 3)).Draw(t, "allowed"),
			Config:         config.Draw(t, "config"),
			At:             Timestamp(rapid.Int64().Draw(t, "at")),
		}
	})
}

// Strings are quoted as encoding/json quotes them with HTML escaping off,
// whatever bytes they hold.
func TestAppendJSONStringUnchanged(t *testing.T) {
	odd := rapid.SampledFrom([]string{"<a&b>", "\u2028\u2029", "\xff", "\xe2\x80", "\x00\x1f\x7f", "\b\f\n\r\t", `"\`, "é", "\U0001F600", "\ufffd"})
	rapid.Check(t, func(t *rapid.T) {
		var s []byte
		for range rapid.IntRange(0, 8).Draw(t, "parts") {
			switch rapid.IntRange(0, 2).Draw(t, "part") {
			case 0:
				s = append(s, rapid.SliceOfN(rapid.Byte(), 0, 6).Draw(t, "raw")...)
			case 1:
				s = append(s, odd.Draw(t, "odd")...)
			default:
				// Long plain runs, read eight bytes at a time, beside
				// the bytes that need a look.
				s = append(s, rapid.StringMatching(`[ -~]{0,20}`).Draw(t, "plain")...)
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

// plainWord passes eight bytes exactly when each is one appendJSONString
// copies as it is.
func TestPlainWord(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.OneOf(rapid.Byte(), rapid.SampledFrom([]byte{0x1f, 0x20, '"', '\\', 0x7f, 0x80, '!', '#', '[', ']'})), 8, 8).Draw(t, "bytes")
		want := true
		for _, c := range b {
			want = want && c >= 0x20 && c != '"' && c != '\\' && c < 0x80
		}
		if got := plainWord(binary.LittleEndian.Uint64(b)); got != want {
			t.Fatalf("plainWord(%q) = %v, want %v", b, got, want)
		}
	})
}

func BenchmarkAppendJSONString(b *testing.B) {
	s := "publish tool_result#26; publish turn_started#27; invoke_model turn=6 history=11 tokens=122 tools=1"
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = appendJSONString(buf[:0], s)
	}
}

// A schema that is not JSON fails the submit record's encoding, as
// encoding/json fails it, whether or not a valid one came before.
func TestSubmittedWithBadSchemaDoesNotEncode(t *testing.T) {
	good := json.RawMessage(`{"type":"object"}`)
	for _, schema := range []json.RawMessage{json.RawMessage(`{"type":`), json.RawMessage(`{"type":"object"} trailing`), good} {
		sub := Submitted{RunID: "r", Config: &AgentConfig{Model: "m", Tools: []ToolDescriptor{{Name: "t", InputSchema: schema}}}}
		_, ok := appendBody(nil, sub)
		_, err := EncodeSignal(sub)
		if valid := json.Valid(schema); ok != valid || (err == nil) != valid {
			t.Errorf("schema %s: written by hand %v, EncodeSignal error %v; want both to say valid=%v", schema, ok, err, valid)
		}
	}
}
