package turn

import (
	"context"
	"iter"

	"github.com/batonrt/baton/contract"
)

// Provider streams one model call. The sequence ends after a ChunkStop (or
// an error); a provider stops at once when ctx is cancelled. Errors should
// be *ProviderError where the provider knows the status, so the driver can
// tell retryable failures from final ones.
type Provider interface {
	Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[Chunk, error]
}

// ConfigChecker is a Provider whose API refuses some agent configs
// outright (a sampling option that cannot go with thinking, say).
// CheckConfig names those fields, as AgentConfig.Validate would, so an
// agent is refused when it is created rather than at its first model call.
type ConfigChecker interface {
	Provider
	CheckConfig(cfg contract.AgentConfig) []contract.FieldError
}

// ChunkKind names a piece of a streamed reply.
type ChunkKind string

const (
	ChunkText          ChunkKind = "text"            // Text
	ChunkThinking      ChunkKind = "thinking"        // Text, and Signature when the provider signs it (see Chunk)
	ChunkToolCallStart ChunkKind = "tool_call_start" // Index, CallID, Name
	ChunkToolCallArgs  ChunkKind = "tool_call_args"  // Index, Text (an argument fragment)
	ChunkToolCallEnd   ChunkKind = "tool_call_end"   // Index
	ChunkUsage         ChunkKind = "usage"           // Usage
	ChunkStop          ChunkKind = "stop"            // Stop

	// ChunkRedactedThinking is one whole thinking block the provider
	// encrypted, its opaque data in Signature. It has no readable text, so
	// it publishes no delta.
	ChunkRedactedThinking ChunkKind = "redacted_thinking"

	// ChunkResponse says which reply this is, as the provider reports
	// it: Name is the model that answered (maybe a dated version of the
	// one asked), Text the reply's id. Either may be empty. It is not
	// part of the reply: hosts see it on the turn_completed event only
	// (see Driver.RunReply). A stream has at most one, before its first
	// content chunk and its stop (turntest checks it); best yielded
	// together with the chunk after it, as relay.Response does, since
	// the first-chunk timeout and the fallback to Completer count any
	// chunk as the reply begun.
	ChunkResponse ChunkKind = "response"
)

// Response is what a provider says of a reply besides its content
// (ChunkResponse), for telemetry: the model that answered and the
// reply's id, empty where it said nothing.
type Response struct {
	Model, ID string
}

// Chunk is one piece of a streamed reply. A thinking signature, in one
// chunk or several, ends the block it signs: thinking text after it
// starts the next block.
type Chunk struct {
	Kind      ChunkKind
	Text      string
	Signature string
	Index     int
	CallID    string
	Name      string
	Usage     contract.Usage
	Stop      contract.StopReason
}
