package anthropic

import (
	"context"
	"iter"
	"net/http"
	"slices"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/relay"
)

// DefaultBaseURL is Anthropic's own endpoint.
const DefaultBaseURL = "https://api.anthropic.com/"

// Provider streams messages. It is safe for concurrent use.
type Provider struct {
	stream relay.SDK[sdk.MessageNewParams, sdk.MessageStreamEventUnion]
}

var _ turn.Provider = (*Provider)(nil)

// Option configures a Provider.
type Option func(*settings)

type settings = endpoint.Settings

// WithBaseURL points the provider at another host speaking the Messages
// API, such as a gateway or a proxy.
func WithBaseURL(url string) Option { return endpoint.BaseURL(url) }

// WithAPIKey sets the x-api-key header. Without one none is sent, which
// gateways that add their own credentials accept.
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
		// The v2 SDK sends an API key as a bearer token; the Messages
		// API documents x-api-key, which every gateway accepts.
		ropts = append(ropts, option.WithHeader("x-api-key", s.APIKey))
	}
	// Clipped: the SDK appends each call's options to these in place.
	messages := sdk.NewMessageService(slices.Clip(ropts)...)
	return &Provider{stream: relay.SDK[sdk.MessageNewParams, sdk.MessageStreamEventUnion]{
		Build: buildParams,
		Open: func(ctx context.Context, p sdk.MessageNewParams, resp **http.Response) relay.Events[sdk.MessageStreamEventUnion] {
			return messages.NewStreaming(ctx, p, option.WithResponseInto(resp))
		},
		Decoder:  func() relay.Decoder[sdk.MessageStreamEventUnion] { return &decoder{} },
		Failures: failures,
	}}
}

// NewFromEnv returns a provider reading ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY;
// opts given here win over the environment.
func NewFromEnv(opts ...Option) *Provider {
	return New(endpoint.FromEnv("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", opts)...)
}

// Stream sends req and yields the reply as it arrives. The request is
// made when the sequence is ranged over, once per range.
func (p *Provider) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return p.stream.Stream(ctx, req)
}
