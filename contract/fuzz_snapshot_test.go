package contract_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/batonrt/baton/contract"
)

// FuzzDecodeSnapshot: no input panics the decoder, and what it accepts
// re-encodes to bytes that decode to the same snapshot (canonical form).
func FuzzDecodeSnapshot(f *testing.F) {
	if b, err := os.ReadFile("testdata/snapshot.json"); err == nil {
		f.Add(b)
	}
	empty, _ := contract.EncodeSnapshot(contract.RunSnapshot{SessionID: "s", Phase: contract.PhaseIdle})
	f.Add(empty)
	f.Add([]byte(`{"v":1,"kind":"snapshot","body":{"session_id":"s","phase":"idle","history":[{"role":"user","blocks":[{"kind":"text","text":"hi"}]}],"seq":1,"steps":1}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := contract.DecodeSnapshot(b)
		if err != nil {
			return
		}
		once, err := contract.EncodeSnapshot(s)
		if err != nil {
			t.Fatalf("decoded snapshot does not encode: %v", err)
		}
		again, err := contract.DecodeSnapshot(once)
		if err != nil {
			t.Fatalf("re-encoded snapshot does not decode: %v", err)
		}
		twice, _ := contract.EncodeSnapshot(again)
		if !bytes.Equal(once, twice) {
			t.Fatalf("encoding is not canonical:\n%s\n%s", once, twice)
		}
	})
}
