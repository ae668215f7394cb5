package openai

import (
	"context"
	"iter"
	"net/http"
	"slices"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/relay"
)

// DefaultBaseURL is OpenAI's own endpoint.
const DefaultBaseURL = "https://api.openai.com/v1/"

// Provider streams chat completions. It is safe for concurrent use.
type Provider struct {
	stream relay.SDK[sdk.ChatCompletionNewParams, sdk.ChatCompletionChunk]
	chat   sdk.ChatCompletionService
}

var _ turn.Completer = (*Provider)(nil)

// Option configures a Provider.
type Option func(*settings)

type settings = endpoint.Settings

// WithBaseURL points the provider at an OpenAI-compatible server, such as
// http://localhost:11434/v1 for Ollama.
func WithBaseURL(url string) Option { return endpoint.BaseURL(url) }

// WithAPIKey sets the bearer key. Without one no Authorization header is
// sent, which local servers accept.
func WithAPIKey(key string) Option { return endpoint.APIKey(key) }

// WithHTTPClient sets the HTTP client; nil keeps http.DefaultClient.
func WithHTTPClient(c *http.Client) Option { return endpoint.HTTPClient(c) }

// New returns a provider configured only by opts; it reads no environment.
func New(opts ...Option) *Provider {
	s := endpoint.Resolve(DefaultBaseURL, opts)
	ropts := []option.RequestOption{
		option.WithBaseURL(s.BaseURL),
		option.WithHTTPClient(s.Client),
		// The turn driver owns retries and their backoff.
		option.WithMaxRetries(0),
	}
	if s.APIKey != "" {
		ropts = append(ropts, option.WithAPIKey(s.APIKey))
	}
	// The SDK appends each call's options to these in place; with spare
	// capacity, concurrent calls would share (and race on) its tail.
	chat := sdk.NewChatCompletionService(slices.Clip(ropts)...)
	return &Provider{chat: chat, stream: relay.SDK[sdk.ChatCompletionNewParams, sdk.ChatCompletionChunk]{
		Build: buildParams,
		Open: func(ctx context.Context, p sdk.ChatCompletionNewParams, resp **http.Response) relay.Events[sdk.ChatCompletionChunk] {
			return chat.NewStreaming(ctx, p, option.WithResponseInto(resp))
		},
		Decoder:  func() relay.Decoder[sdk.ChatCompletionChunk] { return &decoder{} },
		Failures: failures,
	}}
}

// NewFromEnv returns a provider reading OPENAI_BASE_URL and OPENAI_API_KEY;
// opts given here win over the environment.
func NewFromEnv(opts ...Option) *Provider {
	return New(endpoint.FromEnv("OPENAI_BASE_URL", "OPENAI_API_KEY", opts)...)
}

// Stream sends req and yields the reply as it arrives. The request is
// made when the sequence is ranged over, once per range.
func (p *Provider) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return p.stream.Stream(ctx, req)
}
