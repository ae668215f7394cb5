package tracing

import (
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/batonrt/baton/contract"
)

// compacted spans the compaction from the event before it, when the run
// went into compacting, to the summary's arrival, and fails the model
// call whose overflow it answers.
func (t *Tracer) compacted(r *runSpans, start time.Time, ev contract.RunEvent, at time.Time) {
	if start.After(at) || start.IsZero() {
		start = at
	}
	if r.chat != nil {
		// A model call still open when the history is compacted got no
		// reply: the context was full, which is what compacting in the
		// middle of a call answers, and no event ended the call. It is
		// ended where the compaction began, the last known of it.
		r.chat.SetAttributes(semconv.ErrorTypeKey.String(string(contract.FailContextOverflow)))
		r.chat.SetStatus(codes.Error, "the model's context was full; the history was compacted")
		r.chat.End(trace.WithTimestamp(start))
		r.chat = nil
	}
	outcome := compactionOutcome(ev)
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameKey.String("compaction"), attribute.String("baton.compaction.outcome", outcome)}
	if outcome == "summarized" {
		attrs = append(attrs, attribute.Int("baton.summary.bytes", len(ev.Text)))
	}
	_, span := t.tracer.Start(r.ctx, "compaction", trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	if outcome == "fallback" {
		// The summary call failed; the run went on with old tool outputs
		// dropped instead. The event says why, as an error says it.
		span.SetAttributes(semconv.ErrorTypeKey.String("summary_failed"))
		span.SetStatus(codes.Error, errorText(ev.Text))
	}
	span.End(trace.WithTimestamp(at))
}

// compactionOutcome names how a compaction ended: "summarized" when its
// summary replaced history; "skipped" when the summary would not have
// shrunk it, and "fallback" when the summary call failed, both events
// without a cut whose text says why (see cadence).
func compactionOutcome(ev contract.RunEvent) string {
	if ev.Index == 0 {
		switch {
		case strings.HasPrefix(ev.Text, "skipped: "):
			return "skipped"
		case strings.HasPrefix(ev.Text, "fallback: "):
			return "fallback"
		}
	}
	return "summarized"
}
