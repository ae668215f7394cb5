package httpfail

import (
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// StatusKind maps an HTTP error status and the API's message to a kind.
// 529 is Anthropic's "overloaded" and falls with the other 5xx. OpenAI
// answers 429 insufficient_quota to an account out of credit, which no
// wait cures: that is the account's failure, not a rate limit, as is 402
// Payment Required, which gateways such as OpenRouter answer to an
// account out of credit. 409 (a lock timeout on a busy resource) and 425
// Too Early ask for the same request again later, as the 5xx do, unless
// the message says the prompt does not fit: llama.cpp's server has said
// so with status 500, and no retry makes it fit.
func StatusKind(status int, msg string) contract.FailureKind {
	// The status alone is classified as turn.FailureForStatus does, for
	// providers that have nothing else; the message refines it here.
	kind := turn.FailureForStatus(status)
	switch {
	case kind == contract.FailRateLimited && strings.Contains(msg, "insufficient_quota"):
		return contract.FailAuth
	case kind == contract.FailRateLimited, kind == contract.FailAuth:
		return kind
	case overflowSaid(kind, msg):
		return contract.FailContextOverflow
	case kind == contract.FailOther:
		return contract.FailInvalidRequest
	}
	return kind
}

// FrameKind maps the type or code of an in-stream error frame to a kind.
// Types are read however they are spelt (rate_limit_error, RateLimitError,
// as proxies such as LiteLLM name them), and a frame that names no kind
// but carries an HTTP status as its code is classified by that status.
func FrameKind(typ, msg string) contract.FailureKind {
	name := strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(typ))
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(name, w) {
				return true
			}
		}
		return false
	}
	// The type names the kind more surely than the message: a rate
	// limit's message may speak of "too many tokens".
	switch {
	case ContextOverflow(typ), has("contextlength", "contextwindow", "contextsize"):
		return contract.FailContextOverflow
	case has("ratelimit"):
		return contract.FailRateLimited
	case has("auth", "permission"):
		return contract.FailAuth
	case ContextOverflow(msg):
		return contract.FailContextOverflow
	case has("invalidrequest", "badrequest"):
		return contract.FailInvalidRequest
	case has("server", "overloaded", "apierror", "unavailable"):
		return contract.FailServer
	}
	for _, f := range strings.Fields(typ) {
		if status, err := strconv.Atoi(f); err == nil && status >= 400 && status < 600 {
			return StatusKind(status, typ+" "+msg)
		}
	}
	return contract.FailStream
}

// overflowPhrases are the ways OpenAI, Anthropic and the servers and
// proxies that copy them say the prompt does not fit; llama.cpp's server
// says it "exceeds the available context size", and Anthropic, when the
// prompt plus max_tokens does not fit, that they "exceed context limit";
// Gemini that the input "exceeds the maximum number of tokens allowed",
// xAI names the "maximum prompt length", vLLM the "maximum model length"
// and Bedrock says the "input is too long for requested model".
var overflowPhrases = []string{
	"context_length_exceeded", "context length", "context window", "context size", "context limit", "maximum context",
	"prompt is too long", "too many tokens", "exceeds the maximum number of tokens", "maximum prompt length",
	"maximum model length", "input is too long for requested model",
}

// overflowSaid says a failure of the kind its status gives says the
// prompt does not fit. A failure the server owns (a 5xx, a conflict) must
// name the context or the prompt: one that speaks only of too many tokens
// may mean a rate or a queue, and is retried.
func overflowSaid(kind contract.FailureKind, msg string) bool {
	if kind == contract.FailServer {
		msg = tokenCounts.Replace(strings.ToLower(msg))
	}
	return ContextOverflow(msg)
}

// tokenCounts takes out the phrases that speak of tokens without the
// context.
var tokenCounts = strings.NewReplacer("too many tokens", "", "exceeds the maximum number of tokens", "")

// ContextOverflow reports whether msg says the prompt does not fit.
func ContextOverflow(msg string) bool {
	msg = strings.ToLower(msg)
	for _, s := range overflowPhrases {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
