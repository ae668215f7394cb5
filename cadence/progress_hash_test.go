package cadence

import (
	"hash/fnv"
	"testing"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// Recorded sessions' no_progress decisions rest on these hashes, so the
// written-out FNV-1a must agree with hash/fnv byte for byte.
func TestResultHashIsFNV1a(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := contract.ToolCall{ID: "c1", Name: rapid.String().Draw(t, "name"), Arguments: rapid.SampledFrom([]string{"", `{"a": 1}`, `{"text":"x"}`, "not json", `{"b":2,"a":[1,2]}`, `{"b": 2, "a": 1}`}).Draw(t, "args")}
		tr := &transition{}
		tr.s.Revision = rapid.IntRange(0, contract.CurrentRevision).Draw(t, "revision")
		r := contract.ToolResult{Content: rapid.String().Draw(t, "content"), IsError: rapid.Bool().Draw(t, "error")}
		h := fnv.New64a()
		h.Write([]byte(tr.signature(c)))
		h.Write([]byte{0})
		if r.IsError {
			h.Write([]byte{1})
		}
		h.Write([]byte(r.Content))
		if want, got := h.Sum64(), tr.resultHash(&c, &r); got != want {
			t.Fatalf("resultHash = %#x, want %#x", got, want)
		}
	})
}
