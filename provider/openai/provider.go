package openai

import (
	"context"
	"iter"
	"net/http"

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
	// atOpenAI says whether the base URL is OpenAI's own API, the one
	// server whose model names say which options a model refuses.
	atOpenAI bool
	// reasoningBack says whether the base URL is an API that wants
	// reasoning sent back (see sending.reasoningBack).
	reasoningBack bool
	send          sending
}

var _ turn.Completer = (*Provider)(nil)

// sdkOptions builds the SDK's request options from the settings.
var sdkOptions = endpoint.SDK[option.RequestOption]{
	BaseURL:    option.WithBaseURL,
	HTTPClient: func(c *http.Client) option.RequestOption { return option.WithHTTPClient(c) },
	APIKey:     option.WithAPIKey, // a bearer token
	NoRetries:  option.WithMaxRetries(0),
	Middleware: option.WithMiddleware,
}

// New returns a provider configured only by opts; it reads no
// environment. Without endpoint.APIKey no Authorization header is sent,
// which local servers accept; endpoint.BaseURL points it at any
// OpenAI-compatible server, such as http://localhost:11434/v1 for Ollama.
// Options an OpenAI model refuses are refused only at OpenAI's own API;
// any other server is sent what was asked, unless WithRules says
// otherwise.
func New(opts ...endpoint.Option) *Provider {
	chat := sdk.NewChatCompletionService(sdkOptions.Resolve(DefaultBaseURL, opts)...)
	base := endpoint.Resolve(DefaultBaseURL, opts).BaseURL
	return newProvider(chat, isOpenAIAPI(base), wantsReasoningBack(base), RulesByHost)
}

// WithRules returns a provider like p that follows rules r, for a server
// whose host does not say what its models take (see Rules). Under rules
// none of the known ones it refuses every config and request, before
// sending, rather than follow none.
func (p *Provider) WithRules(r Rules) *Provider {
	return newProvider(p.chat, p.atOpenAI, p.reasoningBack, r)
}

func newProvider(chat sdk.ChatCompletionService, atOpenAI, reasoningBack bool, r Rules) *Provider {
	send := r.at(atOpenAI)
	send.reasoningBack = reasoningBack
	return &Provider{chat: chat, atOpenAI: atOpenAI, reasoningBack: reasoningBack, send: send, stream: relay.SDK[sdk.ChatCompletionNewParams, sdk.ChatCompletionChunk]{
		Build: func(req contract.ModelRequest) (sdk.ChatCompletionNewParams, error) { return buildParams(req, send) },
		Open: func(ctx context.Context, p sdk.ChatCompletionNewParams, resp **http.Response) relay.Events[sdk.ChatCompletionChunk] {
			watch := &streamWatch{}
			return &doneEvents{Events: chat.NewStreaming(ctx, p, option.WithResponseInto(resp), watch.option()), watch: watch}
		},
		Decoder:  func() relay.Decoder[sdk.ChatCompletionChunk] { return &decoder{} },
		Failures: failures,
	}}
}

// NewFromEnv returns a provider reading OPENAI_BASE_URL and OPENAI_API_KEY;
// opts given here win over the environment.
func NewFromEnv(opts ...endpoint.Option) *Provider {
	return New(endpoint.FromEnv("OPENAI_BASE_URL", "OPENAI_API_KEY", opts)...)
}

// Stream sends req and yields the reply as it arrives. The request is
// made when the sequence is ranged over, once per range.
func (p *Provider) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return p.stream.Stream(ctx, req)
}
