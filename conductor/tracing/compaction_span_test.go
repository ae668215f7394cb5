package tracing_test

import (
	"context"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
)

// TestCompactionSpanCoversTheCompaction: the compaction span runs from the
// event before the compaction (when the run went into compacting) to the
// compaction event, as the package documents; it must not be empty.
func TestCompactionSpanCoversTheCompaction(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	tr := tracing.New(tp, tracing.Options{})
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) contract.Timestamp {
		return contract.Timestamp(base.Add(time.Duration(s) * time.Second).UnixNano())
	}
	ev := func(seq uint64, s int, kind contract.EventKind) contract.RunEvent {
		return contract.RunEvent{Seq: seq, SessionID: "s1", RunID: "r1", At: at(s), Kind: kind}
	}
	tr.Observe(ev(1, 1, contract.EvRunStarted))
	tr.Observe(ev(2, 2, contract.EvTurnStarted))
	done := ev(3, 3, contract.EvTurnCompleted)
	done.Turn = &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("hi")}}
	tr.Observe(done)
	c := ev(4, 10, contract.EvCompaction)
	c.Text = "SUMMARY"
	tr.Observe(c)
	tr.Observe(ev(5, 11, contract.EvRunSettled))
	var span *tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		if s.Name == "compaction" {
			span = &s
		}
	}
	if span == nil {
		t.Fatal("no compaction span")
	}
	if want := base.Add(3 * time.Second); !span.StartTime.Equal(want) {
		t.Errorf("compaction span starts at %v, want %v (the event before it); it lasts %v", span.StartTime, want, span.EndTime.Sub(span.StartTime))
	}
}

// TestClosedWhileAwaitingApprovalEndsRunSpan: an agent closed while its
// run waits for an approval leaves the run in the store for a later
// Resume, and publishes nothing more; the tracer still must not keep
