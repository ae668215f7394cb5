package anthropic

import (
	"context"
	"iter"
	"net/http"

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

// sdkOptions builds the SDK's request options from the settings.
var sdkOptions = endpoint.SDK[option.RequestOption]{
	BaseURL:    option.WithBaseURL,
	HTTPClient: func(c *http.Client) option.RequestOption { return option.WithHTTPClient(c) },
	// The v2 SDK sends an API key as a bearer token; the Messages API
	// documents x-api-key, which every gateway accepts.
	APIKey:     func(key string) option.RequestOption { return option.WithHeader("x-api-key", key) },
	NoRetries:  option.WithMaxRetries(0),
	Middleware: option.WithMiddleware,
	APIPath:    "v1",
}

// New returns a provider configured only by opts; it reads no
// environment. Without endpoint.APIKey no x-api-key header is sent,
// which gateways that add their own credentials accept.
func New(opts ...endpoint.Option) *Provider {
	// nameEvents drops a byte order mark itself, so it may come before
	// or after endpoint.StripBOM.
	messages := sdk.NewMessageService(append([]option.RequestOption{option.WithMiddleware(nameEvents)}, sdkOptions.Resolve(DefaultBaseURL, opts)...)...)
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
func NewFromEnv(opts ...endpoint.Option) *Provider {
	return New(endpoint.FromEnv("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", opts)...)
}

// Stream sends req and yields the reply as it arrives. The request is
// made when the sequence is ranged over, once per range.
func (p *Provider) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return p.stream.Stream(ctx, req)
}
