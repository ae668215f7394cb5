// Package anthropic is a turn.Provider for the Anthropic Messages API: it
// maps a contract.ModelRequest onto a streaming request through the
// official SDK, sends thinking blocks back with their signatures and
// redacted thinking blocks with their data, turns a thinking level into a
// thinking budget (cut to the model's output cap, and left off for a
// tool loop that started without thinking, which the API refuses with
// it), refuses before sending and in CheckConfig the options a model
// refuses, and turns the streamed events into turn.Chunks, the model and
// message id of message_start first (turn.ChunkResponse), usage (with
// cache reads) last, failures as *turn.ProviderError. Events a gateway
// relays without their "event:" line, or with an empty one, which the
// SDK would skip, are named by the type their JSON says, wherever they
// are in the stream. The stream is read as the event-stream format says
// (lone CR line ends, no event without data) by provider/internal/sse,
// which passes it on to the SDK's decoder. The SDK's own retries are
// off; the turn driver retries. It imports contract and turn (with its
// HTTP provider toolkit: endpoint, httpfail, relay), and
// provider/internal/sse. New and NewFromEnv take endpoint's options: base
// URL, API key, HTTP client.
package anthropic
