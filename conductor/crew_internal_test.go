package conductor

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// batchThenHang answers its first call with n calls of "slow" and holds
// every later one until its context ends.
type batchThenHang struct {
	n     int
	calls atomic.Int32
}

func (p *batchThenHang) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		if p.calls.Add(1) > 1 {
			<-ctx.Done()
			yield(turn.Chunk{}, ctx.Err())
			return
		}
		for i := range p.n {
			if !yield(turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: fmt.Sprint("c", i), Name: "slow"}, nil) ||
				!yield(turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: `{}`}, nil) {
				return
			}
		}
		yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}, nil)
	}
}

// abortInBatch is a store that, while the step starting a batch is being
// made durable, has the run aborted and waits for the abort to be queued
// behind that step: the run ends while its calls are left for a worker.
type abortInBatch struct {
	store.Store
	a    *Agent
	once atomic.Bool
}

func (s *abortInBatch) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	for _, r := range recs {
		if rep, ok := r.Signal.(contract.ModelReplied); ok && len(rep.Reply.Calls()) > 1 && s.once.CompareAndSwap(false, true) {
			go s.a.Abort(contract.AbortNow)
			deadline := time.Now().Add(5 * time.Second)
			for s.a.queued() < 1 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
		}
	}
	return s.Store.Append(ctx, id, recs...)
}

// A run that ends while the calls of a batch wait for a worker leaves
// none of them behind: each is answered, no tool is counted as one that
// ignored its cancellation, and Close returns at once.
func TestBatchLeftWhenTheRunEndsIsAnsweredWhole(t *testing.T) {
	slow, err := dispatch.NewTool(contract.ToolDescriptor{Name: "slow", Description: "Waits.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
			select {
			case <-ctx.Done():
				return contract.ToolOutcome{}, ctx.Err()
			case <-time.After(5 * time.Second):
				return contract.ToolOutcome{Content: "late"}, nil
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	box, err := dispatch.NewToolBox(slow)
	if err != nil {
		t.Fatal(err)
	}
	st := &abortInBatch{Store: store.NewMemory()}
	a, err := CreateAgent(contract.AgentConfig{Model: "scripted"}, Deps{
		Model: Model{Provider: &batchThenHang{n: 3}, MaxRetries: turn.NoRetries},
		Tools: Tools{Box: box},
		Env:   Env{Store: st},
	})
	if err != nil {
		t.Fatal(err)
	}
	st.a = a
	if snap, err := a.Submit(context.Background(), Text("go")); err == nil || snap.Phase != contract.PhaseFaulted {
		t.Fatalf("Submit = phase %s, %v; want faulted by the abort", snap.Phase, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for a.sched.Stragglers() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := a.sched.Stragglers(); n > 0 {
		t.Errorf("%d calls of the ended run were never run nor answered", n)
	}
	start := time.Now()
	if err := a.Close(); err != nil {
		t.Errorf("Close = %v after %v", err, time.Since(start))
	}
}
