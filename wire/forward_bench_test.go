package wire

import (
	"context"
	"io"
	"iter"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// sayDone answers every model call with one word.
type sayDone struct{}

func (sayDone) Stream(context.Context, contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		if yield(turn.Chunk{Kind: turn.ChunkText, Text: "done"}, nil) {
			yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
		}
	}
}

// BenchmarkForward is one run of a thread posted to the handler that
// drives it (direct) and to the other handler, which relays it
// (forwarded): the difference is what handing a request to the owner
// costs.
func BenchmarkForward(b *testing.B) {
	p := newPair(b, func(st store.Store, id string) (*conductor.Agent, error) {
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: sayDone{}}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	run := func(b *testing.B, url string) {
		resp, err := http.Post(url, "application/json", strings.NewReader(runBody("bench", "go")))
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "RUN_FINISHED") {
			b.Fatalf("run: %d %s", resp.StatusCode, body)
		}
	}
	run(b, p.nodes[0].srv.URL) // the first handler opens the thread
	for _, bc := range []struct {
		name string
		node *pairNode
	}{{"direct", p.nodes[0]}, {"forwarded", p.nodes[1]}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run(b, bc.node.srv.URL)
			}
		})
	}
}
