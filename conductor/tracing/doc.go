// Package tracing turns an agent's run events into OpenTelemetry spans
// that follow the GenAI semantic conventions (semconv v1.41.0, the newest
// release of go.opentelemetry.io/otel/semconv that ships the gen_ai
// attributes): an invoke_agent span per run (with the run's token usage,
// its delegates' runs counted in), a chat span per model call (its
// conversation, the model and, for an attached agent, the parameters its
// config asks; as the provider reports them, the model that answered and
// the reply's id; token usage, finish reasons), an
// execute_tool span per tool call (name, call id), an invoke_agent span
// per delegation under its delegate call, and a compaction span (how it
// ended: summarized, skipped, or fallen back when the summary failed),
// parented as the run nests them,
// with errors recorded on the span that failed. Message content (input,
// output, tool arguments and results) is left out unless Options.Content
// opts in, the content a fault quotes among it (a repeated call's
// arguments, the answer an output schema refused); error texts lose the
// URLs and credentials they quote. A run
// picked up again by Resume or Reopen publishes no run_started: its first
// event opens its span, marked baton.run.resumed.
//
// A chat span's gen_ai.response.finish_reasons (and its output message's
// finish_reason) is the provider's stop in the conventions' words:
// end_turn is "stop", tool_use "tool_call", max_tokens "length" and
// refusal "content_filter". Earlier releases told only "tool_calls", for
// a reply with calls, from "stop", for any other, a reply cut at the
// token limit among them; events without a stop, from run logs written
// then, are still told that way, in today's words.
//
// It is built on the OTel API only: the host brings the SDK and exporter
// as a trace.TracerProvider. Spans take their times from the events, so
// they hang off the event stream and never enter the reducer, the record
// or replay. It imports contract, conductor and internal/redact.
package tracing
