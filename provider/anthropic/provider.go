package anthropic

import (
	"context"
	"iter"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/internal/endpoint"
	"github.com/batonrt/baton/provider/internal/relay"
	"github.com/batonrt/baton/turn"
)

// DefaultBaseURL is Anthropic's own endpoint.
const DefaultBaseURL = "https://api.anthropic.com/"

// Provider streams messages. It is safe for concurrent use.
type Provider struct {
	messages sdk.MessageService
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
		ropts = append(ropts, option.WithAPIKey(s.APIKey))
	}
	return &Provider{messages: sdk.NewMessageService(ropts...)}
}

// NewFromEnv returns a provider reading ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY;
// opts given here win over the environment.
func NewFromEnv(opts ...Option) *Provider {
	return New(endpoint.FromEnv("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", opts)...)
}

// Stream sends req and yields the reply as it arrives. The request is
// made when the sequence is ranged over, once per range.
func (p *Provider) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		params, err := buildParams(req)
		if err != nil {
			yield(turn.Chunk{}, failures.BadRequest(err))
			return
		}
		var resp *http.Response
		stream := p.messages.NewStreaming(ctx, params, option.WithResponseInto(&resp))
		relay.Run(ctx, stream, resp, &decoder{}, failures, yield)
	}
}
