// Package tracing turns an agent's run events into OpenTelemetry spans
// that follow the GenAI semantic conventions (semconv v1.41.0, the newest
// release of go.opentelemetry.io/otel/semconv that ships the gen_ai
// attributes): an invoke_agent span per run, a chat span per model call
// (the model asked and, as the provider reports them, the model that
// answered and the reply's id; token usage, finish reasons), an
// execute_tool span per tool call (name, call id), an invoke_agent span
// per delegation under its delegate call, and a compaction span,
// parented as the run nests them,
// with errors recorded on the span that failed. Message content (input,
// output, tool arguments and results) is left out unless Options.Content
// opts in; error texts lose the URLs and credentials they quote. A run
// picked up again by Resume or Reopen publishes no run_started: its first
// event opens its span, marked baton.run.resumed.
//
// It is built on the OTel API only: the host brings the SDK and exporter
// as a trace.TracerProvider. Spans take their times from the events, so
// they hang off the event stream and never enter the reducer, the record
// or replay. It imports contract, conductor and internal/redact.
package tracing
