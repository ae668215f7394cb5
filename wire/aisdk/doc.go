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
// Messages folds a thread's events into the chat's messages, as the
// SDK's own stream reader would build them from the projected chunks,
// for a client that comes back to a thread and shows it whole. A turn
// folds as the session stores it, not as its attempts streamed.
//
// The stream cannot take back a part it sent. When a run's message
// streamed what the session does not store (an attempt of a model call
// that broke after streaming and was made again, a call the runtime
// dropped or mended before storing the turn), the chunk that ends the
// message carries a Correction in its metadata, {"baton": {"corrected":
// true, "message": {...}}}, whose message is the run's as Messages folds
// it; Correct puts it in, from the session's events. A page applies it
// in the chat's onFinish:
//
//	onFinish: ({ message }) => {
//	  const fix = message.metadata?.baton;
//	  if (!fix?.corrected) return;
//	  const i = chat.messages.findIndex((m) => m.id === message.id);
//	  if (fix.message && i >= 0) chat.messages = chat.messages.with(i, fix.message);
//	  else reload(); // GET .../{thread}/messages
//	}
//
// The stored message's metadata has no baton field, so a later stream
// continuing it does not apply the correction again. A correction with
// no message (the stream's message continues the run after the client
// sent one, or the session could not be read) asks for the thread's
// messages read again. A message streamed as stored carries none.
//
// What the stream has no chunk for (approvals, steering, compaction,
// retries, tools starting, a tool output cut, lag) travels as
// data-baton-* parts.
//
// A delegated run (an event with a Subflow path) is one data-baton-subflow
// part per delegate call, replaced in place as it goes from running to
// completed or failed, so a client renders it under the delegate's tool
// part; the child's own work goes as transient data-baton-subflow-event
// parts, since the stream holds one assistant message and the child's
// would read as the parent's.
//
// aisdk imports contract and internal/redact of baton's packages, and
// wire's internal track.
package aisdk
