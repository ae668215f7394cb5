// Customstore wraps a store.Store to add behaviour around it, here an
// audit line for every record appended, and hands it to an agent. The
// test beside it runs the store conformance suite (storetest) over the
// wrapper, which is how any Store implementation proves itself.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"sync"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// auditStore writes one line per appended record and delegates the rest.
type auditStore struct {
	store.Store
	mu  sync.Mutex
	out io.Writer
}

func (s *auditStore) Append(ctx context.Context, session string, recs ...contract.Record) (store.Hash, error) {
	h, err := s.Store.Append(ctx, session, recs...)
	if err != nil {
		return h, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range recs {
		fmt.Fprintf(s.out, "audit %s step %d %s\n", session, r.Step, r.Signal.SignalKind())
	}
	return h, nil
}

func main() {
	st := &auditStore{Store: store.NewMemory(), out: os.Stdout}
	model := scripted.New(scripted.Reply{Text: "Noted."})
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Provider: model, Store: st, SessionID: "audited"})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	if _, err := agent.Submit(context.Background(), conductor.Text("Remember the milk.")); err != nil {
		log.Fatal(err)
	}
	records, err := st.Records(context.Background(), "audited")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d records stored\n", len(records))
}
