// Package track follows one stream of baton events for the wire's
// protocol encoders (wire/agui, wire/aisdk): which run is in flight,
// which model call is streaming, which of its parts (reasoning, text,
// tool calls) are open and what each has streamed. Both encoders keep
// one Stream and only translate its transitions into their protocol's
// messages, so the two cannot disagree on where a turn starts or ends,
// and when a turn completes each can send what its deltas did not carry.
//
// track imports contract and internal/redact of baton's packages.
package track
