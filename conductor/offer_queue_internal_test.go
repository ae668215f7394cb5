package conductor

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
)

// idleAgent is an agent with no run, for driving its queue and offers
// directly; it is closed when the test ends.
func idleAgent(t *testing.T, session string) *Agent {
	t.Helper()
	a, err := CreateAgent(contract.AgentConfig{Model: "m"}, Deps{Model: Model{Provider: &firstThenHang{}}, Env: Env{SessionID: session, IDs: &CountingIDs{}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return a
}

// within fails the test, with every goroutine's stack on stderr, when
// ch is not closed within five seconds.
func within(t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		buf := make([]byte, 1<<20)
		fmt.Fprintf(os.Stderr, "%s never happened; goroutines:\n%s\n", what, buf[:runtime.Stack(buf, true)])
		t.Fatalf("%s never happened", what)
	}
}

// TestOfferQueuedBehindCloseIsDone: an offer taken while Close waits
// for its turn is queued behind it and done by whoever does the agent's
// tasks, never left in a queue nobody drains again; once Close has
// returned, offers are dropped.
func TestOfferQueuedBehindCloseIsDone(t *testing.T) {
	a := idleAgent(t, "session_window")
	entered, release := make(chan struct{}), make(chan struct{})
	go a.enqueue(&task{fn: func() {
		close(entered)
		<-release
	}})
	within(t, "the first task", entered)
	closed := make(chan struct{})
	go func() { _ = a.Close(); close(closed) }()
	waitInbox(t, a, 1)
	ran := make(chan struct{})
	if !a.takeOffer(&task{fn: func() { close(ran) }}) {
		t.Fatal("the offer was dropped before Close had its turn")
	}
	close(release)
	within(t, "Close's return", closed)
	within(t, "the offer taken before Close's turn", ran)
	if a.takeOffer(&task{fn: func() { t.Error("a closed agent did an offer") }}) {
		t.Error("a closed agent took an offer")
	}
}

// TestOfferChainPassesAClosedChild: a parent offers one child after
// another; a child closed meanwhile is passed, and each running child
// takes the offer once, in order.
func TestOfferChainPassesAClosedChild(t *testing.T) {
	p := idleAgent(t, "session_parent")
	kids := []*Agent{idleAgent(t, "session_k1"), idleAgent(t, "session_k2"), idleAgent(t, "session_k3")}
	_ = kids[1].Close()
	var mu sync.Mutex
	var took []string
	done := make(chan struct{})
	var link func(rest []*Agent)
	link = func(rest []*Agent) {
		if len(rest) == 0 {
			close(done)
			return
		}
		k, rest := rest[0], rest[1:]
		next := func() { p.takeOffer(&task{fn: func() { link(rest) }}) }
		p.offers = append(p.offers, offer{to: k, fn: func() {
			mu.Lock()
			took = append(took, k.state.SessionID)
			mu.Unlock()
			next()
		}, dropped: next})
	}
	p.enqueue(&task{fn: func() { link(kids) }})
	within(t, "the chain's end", done)
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(took) != "[session_k1 session_k3]" {
		t.Errorf("the children took the offer as %v, want session_k1 then session_k3", took)
	}
}

// TestQueueLosesNoTaskNorOffer: tasks handed in from outside, offers
// made in turn and taken from outside, and a Close of the receiver, all
// at once: every task is done once, every offer is done or dropped once
// (dropped only by a closed agent), and every chain of offers ends.
func TestQueueLosesNoTaskNorOffer(t *testing.T) {
	for round := range 100 {
		p, k1, k2 := idleAgent(t, "session_p"), idleAgent(t, "session_k1"), idleAgent(t, "session_k2")
		var handed, done, offered, settled, chains, ended atomic.Int64
		var link func(rest []*Agent)
		link = func(rest []*Agent) {
			if len(rest) == 0 {
				ended.Add(1)
				return
			}
			k, rest := rest[0], rest[1:]
			next := func() {
				if !p.takeOffer(&task{fn: func() { link(rest) }}) {
					ended.Add(1)
				}
			}
			p.offers = append(p.offers, offer{to: k, fn: next, dropped: next})
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 30 {
					switch (g + i) % 3 {
					case 0:
						handed.Add(1)
						p.enqueue(&task{fn: func() {
							done.Add(1)
							chains.Add(1)
							link([]*Agent{k1, k2})
						}})
					case 1:
						handed.Add(1)
						k1.enqueue(&task{fn: func() { done.Add(1) }})
					case 2:
						offered.Add(1)
						if !k2.takeOffer(&task{fn: func() { settled.Add(1) }}) {
							settled.Add(1)
						}
					}
				}
			}()
		}
		go func() {
			time.Sleep(time.Duration(round%5) * 100 * time.Microsecond)
			_ = k1.Close()
		}()
		wg.Wait()
		for _, a := range []*Agent{k1, k2, p} {
			_ = a.Close()
		}
		if done.Load() != handed.Load() {
			t.Fatalf("round %d: %d of %d tasks done", round, done.Load(), handed.Load())
		}
		if settled.Load() != offered.Load() {
			t.Fatalf("round %d: %d of %d offers done or dropped", round, settled.Load(), offered.Load())
		}
		if ended.Load() != chains.Load() {
			t.Fatalf("round %d: %d of %d chains ended", round, ended.Load(), chains.Load())
		}
	}
}
