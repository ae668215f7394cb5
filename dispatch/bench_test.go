package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
)

const (
	benchCalls = 64
	benchLimit = 8
	benchSleep = 10 * time.Millisecond
)

func sleepTool(b *testing.B) Tool {
	return toolOf(b, "sleep", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		t := time.NewTimer(benchSleep)
		defer t.Stop()
		select {
		case <-t.C:
			return contract.ToolOutcome{Content: "slept"}, nil
		case <-ctx.Done():
			return contract.ToolOutcome{}, ctx.Err()
		}
	})
}

func noopTool(b *testing.B) Tool { return toolOf(b, "noop", text("ok")) }

func benchCallsOf(n int) []contract.ToolCall {
	calls := make([]contract.ToolCall, n)
	for i := range calls {
		calls[i] = contract.ToolCall{ID: "call_" + strconv.Itoa(i), Name: "t", Arguments: `{}`}
	}
	return calls
}

// runScheduler dispatches every call and waits for every outcome.
func runScheduler(b *testing.B, s *Scheduler, tool Tool, calls []contract.ToolCall) {
	var wg sync.WaitGroup
	wg.Add(len(calls))
	done := func(Outcome) { wg.Done() }
	for _, c := range calls {
		if err := s.Dispatch(context.Background(), Job{Call: c, Tool: tool, Done: done}); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
}

// runBaseline is the hand-written loop the scheduler is measured against:
// a goroutine per call and a semaphore channel, with no timeout, no
// cancellation, no panic recovery and no output cap.
func runBaseline(tool Tool, calls []contract.ToolCall, limit int) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, limit)
	for _, c := range calls {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			_, _ = tool.Call(context.Background(), json.RawMessage(c.Arguments))
		}()
	}
	wg.Wait()
}

// perCall reports ns and allocations per call, besides the per-op figures.
func perCall(b *testing.B, calls int, run func()) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		run()
	}
	elapsed := time.Since(start)
	b.StopTimer()
	runtime.ReadMemStats(&after)
	n := float64(b.N * calls)
	b.ReportMetric(float64(elapsed.Nanoseconds())/n, "ns/call")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/call")
}

// BenchmarkDispatch runs 64 calls of tools that sleep 10ms under a limit
// of 8: the ideal wall time is ceil(64/8) x 10ms = 80ms per op.
// overhead-ns/call is what the wall time exceeds that ideal by, per call.
func BenchmarkDispatch(b *testing.B) {
	b.Run(fmt.Sprintf("calls=%d/limit=%d", benchCalls, benchLimit), func(b *testing.B) {
		s := NewScheduler(Options{Limit: benchLimit})
		defer closeScheduler(b, s)
		tool, calls := sleepTool(b), benchCallsOf(benchCalls)
		b.ReportAllocs()
		start := time.Now()
		for b.Loop() {
			runScheduler(b, s, tool, calls)
		}
		reportWall(b, time.Since(start))
	})
}

func reportWall(b *testing.B, elapsed time.Duration) {
	ideal := time.Duration((benchCalls+benchLimit-1)/benchLimit) * benchSleep
	perOp := elapsed / time.Duration(b.N)
	b.ReportMetric(float64(perOp)/float64(time.Millisecond), "wall-ms/op")
	b.ReportMetric(float64(ideal)/float64(time.Millisecond), "ideal-ms/op")
	b.ReportMetric(float64(perOp-ideal)/benchCalls, "overhead-ns/call")
}

// BenchmarkDispatchNoop measures the scheduler's own cost per call.
func BenchmarkDispatchNoop(b *testing.B) {
	b.Run(fmt.Sprintf("calls=%d/limit=%d", benchCalls, benchLimit), func(b *testing.B) {
		s := NewScheduler(Options{Limit: benchLimit})
		defer closeScheduler(b, s)
		tool, calls := noopTool(b), benchCallsOf(benchCalls)
		b.ReportAllocs()
		perCall(b, benchCalls, func() { runScheduler(b, s, tool, calls) })
	})
}

// BenchmarkBaseline is the bare loop, goroutines and a semaphore channel,
// over the same sleeping and no-op calls.
func BenchmarkBaseline(b *testing.B) {
	b.Run(fmt.Sprintf("sleep/calls=%d/limit=%d", benchCalls, benchLimit), func(b *testing.B) {
		tool, calls := sleepTool(b), benchCallsOf(benchCalls)
		b.ReportAllocs()
		start := time.Now()
		for b.Loop() {
			runBaseline(tool, calls, benchLimit)
		}
		reportWall(b, time.Since(start))
	})
	b.Run(fmt.Sprintf("noop/calls=%d/limit=%d", benchCalls, benchLimit), func(b *testing.B) {
		tool, calls := noopTool(b), benchCallsOf(benchCalls)
		b.ReportAllocs()
		perCall(b, benchCalls, func() { runBaseline(tool, calls, benchLimit) })
	})
}
