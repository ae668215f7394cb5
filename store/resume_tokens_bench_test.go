package store_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/vfs"
)

// tokenSession records n signals of a session whose replies hold about
// 2 KB of prose each, under model. With carried set the replies carry
// their token estimates, as the conductor's model workers record them;
// without, they carry none, as records made before estimates were carried.
func tokenSession(b *testing.B, model string, n int, carried bool) ([]contract.Record, *cadence.Rules) {
	b.Helper()
	rules := cadence.New(contract.AgentConfig{Model: model, Compaction: contract.CompactionPolicy{Disabled: true}, MaxTurns: contract.MaxMaxTurns})
	prose := strings.Repeat("The fjord lies still under a low grey sky, and the ferry is late again. ", 28)
	s := cadence.InitialSnapshot("s")
	recs := make([]contract.Record, 0, n)
	for i := range n {
		at := contract.Timestamp(1_000_000 * int64(i+1))
		var sig contract.Signal = contract.Submitted{RunID: fmt.Sprintf("run-%d", i), Input: []contract.Turn{contract.UserText("go on")}, At: at}
		if i%2 == 1 {
			reply := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock(fmt.Sprintf("%d. %s", i, prose))}}
			if carried {
				reply.Tokens = compactor.Estimate(model, reply)
			}
			sig = contract.ModelReplied{Reply: reply, Stop: contract.StopEndTurn, At: at}
		}
		next, effects, err := rules.Step(s, sig)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, effects[0].(contract.Persist).Record)
		s = next
	}
	return recs, rules
}

// BenchmarkResumeTokens resumes a 10,000-record session of long replies
// from the start (no checkpoint), for a model counted with tiktoken
// (gpt-4o) and one counted by characters, with the replies' estimates
// carried in the records and without. With them carried, resume never
// tokenizes, so the tiktoken model resumes as fast as the other.
func BenchmarkResumeTokens(b *testing.B) {
	for _, carried := range []bool{true, false} {
		for _, model := range []string{"gpt-4o", "chars"} {
			b.Run(fmt.Sprintf("carried=%v/model=%s", carried, model), func(b *testing.B) {
				ctx := b.Context()
				recs, rules := tokenSession(b, model, 10000, carried)
				fst, err := store.OpenFS(vfs.NewMem())
				if err != nil {
					b.Fatal(err)
				}
				if _, err := fst.Append(ctx, "s", recs...); err != nil {
					b.Fatal(err)
				}
				st := noCheckpoints{fst}
				b.ResetTimer()
				for b.Loop() {
					snap, err := store.Resume(ctx, st, rules, "s")
					if err != nil || snap.Steps != 10000 {
						b.Fatal(snap.Steps, err)
					}
				}
			})
		}
	}
}
