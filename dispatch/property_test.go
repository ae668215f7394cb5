package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// tracker watches tools from the inside: how many run at once, and
// whether a sequential one ever ran beside another.
type tracker struct {
	mu         sync.Mutex
	inFlight   int
	maxFlight  int
	seqActive  bool
	violations []string
}

func (tr *tracker) enter(id string, seq bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.seqActive {
		tr.violations = append(tr.violations, id+" started beside a sequential tool")
	}
	if seq && tr.inFlight > 0 {
		tr.violations = append(tr.violations, fmt.Sprintf("sequential %s started beside %d tools", id, tr.inFlight))
	}
	tr.inFlight++
	tr.maxFlight = max(tr.maxFlight, tr.inFlight)
	tr.seqActive = seq
}

func (tr *tracker) exit() {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.inFlight--
	tr.seqActive = false
}

func (tr *tracker) tool(t *rapid.T, name string, seq bool, timeout time.Duration) Tool {
	d := contract.ToolDescriptor{Name: name, Sequential: seq, Timeout: timeout}
	tl, err := NewTool(d, func(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error) {
		var d time.Duration
		if err := json.Unmarshal(args, &d); err != nil {
			return contract.ToolOutcome{}, err
		}
		tr.enter(CallID(ctx), seq)
		defer tr.exit()
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C:
			return contract.ToolOutcome{Content: CallID(ctx)}, nil
		case <-ctx.Done():
			return contract.ToolOutcome{}, ctx.Err()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestPropertyScheduler(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.IntRange(1, 64).Draw(t, "limit")
		n := rapid.IntRange(0, 32).Draw(t, "calls")
		tr := &tracker{}
		// Tools honour their context, so the grace never has to free a
		// slot and the limit holds for the tools' own count.
		s := NewScheduler(Options{Limit: limit, Grace: time.Minute})
		par := tr.tool(t, "par", false, time.Minute)
		seq := tr.tool(t, "seq", true, time.Minute)
		short := tr.tool(t, "short", false, 300*time.Microsecond)
		var mu sync.Mutex
		got := map[string]int{}
		var wg sync.WaitGroup
		wg.Add(n)
		done := func(o Outcome) {
			mu.Lock()
			got[o.CallID]++
			mu.Unlock()
			wg.Done()
		}
		// A call's Here may take it to run on a goroutine of the test's,
		// whose outcome, when run returns one, counts as its answer.
		take := func(c Taken) bool {
			go func() {
				if o, ok := c.Run(); ok {
					done(o)
				}
			}()
			return true
		}
		decline := func(Taken) bool { return false }
		var cancels []string
		for i := range n {
			id := fmt.Sprintf("c%d", i)
			d := time.Duration(rapid.IntRange(0, 1000).Draw(t, "micros")) * time.Microsecond
			tool := par
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0:
				tool = seq
			case 1:
				tool = short
			case 2:
				cancels = append(cancels, id)
			}
			args, _ := json.Marshal(d)
			job := Job{Call: contract.ToolCall{ID: id, Arguments: string(args)}, Tool: tool, Done: done}
			switch rapid.IntRange(0, 2).Draw(t, "here") {
			case 1:
				job.Here = take
			case 2:
				job.Here = decline
			}
			if err := s.Dispatch(context.Background(), job); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range cancels {
			s.Cancel(id)
		}
		wg.Wait()
		closeScheduler(t, s)
		tr.mu.Lock()
		defer tr.mu.Unlock()
		if tr.maxFlight > limit {
			t.Fatalf("%d tools in flight, limit %d", tr.maxFlight, limit)
		}
		if len(tr.violations) > 0 {
			t.Fatalf("sequential tools overlapped: %v", tr.violations)
		}
		if len(got) != n {
			t.Fatalf("%d calls answered, want %d", len(got), n)
		}
		for id, c := range got {
			if c != 1 {
				t.Fatalf("call %s answered %d times", id, c)
			}
		}
		if st := s.Stragglers(); st != 0 {
			t.Fatalf("%d stragglers after close", st)
		}
	})
}
