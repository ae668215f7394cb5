package wire

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// A client that stops reading a stream relayed from the thread's owner
// is cut off by the handler it talks to, as by the owner: else the relay
// blocks writing to it for ever, once the owner has cut the relay off,
// and holds the connection and its goroutines.
func TestNonOwnerCutsAClientThatStopsReading(t *testing.T) {
	gate := make(chan struct{})
	p := newPairWith(t, HandlerOptions{WriteTimeout: 50 * time.Millisecond}, func(st store.Store, id string) (*conductor.Agent, error) {
		// Far more text than socket buffers hold.
		chunks := make([]turn.Chunk, 0, 1001)
		for range 1000 {
			chunks = append(chunks, turn.Chunk{Kind: turn.ChunkText, Text: strings.Repeat("x", 16<<10)})
		}
		chunks = append(chunks, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){gated(gate, reply(chunks...))}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	owner, relay := p.nodes[0], p.nodes[1]
	p.startRun(t, owner, "t1")
	conn, err := net.Dial("tcp", relay.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /?threadId=t1&lastEventId=0 HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return owner.forwarded.Load() == 1 })
	close(gate)
	// Bounded, and far longer than the write timeout: the relay gives up
	// on the client within a few of them.
	for i := 0; relay.serving.Load() > 0; i++ {
		if i == 1000 {
			t.Fatal("the relay still writes to a client that stopped reading")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
