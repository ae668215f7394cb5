// Package aisdk encodes baton's run events as the Vercel AI SDK's UI
// message stream (the `ai` npm package, version 6) and decodes the chat
// request its transport POSTs. A Projector turns one stream of baton
// events into chunks: a run is one assistant message (start ... finish)
// and each model call one step of it, holding the turn's reasoning, text
// and tool calls and the tools' outputs. Live deltas stream into parts
// and a turn's completion closes them (sending whatever text they did not
// carry); re-projected from the store a completion becomes whole parts.
// The wire package's handler serves it over HTTP; a host with its own
// transport uses the Projector directly, sends each chunk as an SSE data
// line with the StreamHeader response header, and ends the stream with
// `data: [DONE]`.
//
// What the stream has no chunk for (approvals, steering, compaction,
// retries, tools starting, lag) travels as data-baton-* parts.
//
// aisdk imports contract of baton's packages.
package aisdk
