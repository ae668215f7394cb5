package httpfail

import (
	"net/http"
	"strings"

	"github.com/batonrt/baton/contract"
)

// StatusKind maps an HTTP error status and the API's message to a kind.
// 529 is Anthropic's "overloaded" and falls with the other 5xx. OpenAI
// answers 429 insufficient_quota to an account out of credit, which no
// wait cures: that is the account's failure, not a rate limit, as is 402
// Payment Required, which gateways such as OpenRouter answer to an
// account out of credit. 409 (a lock timeout on a busy resource) and 425
// Too Early ask for the same request again later, as the 5xx do.
func StatusKind(status int, msg string) contract.FailureKind {
	switch {
	case status == http.StatusTooManyRequests && strings.Contains(msg, "insufficient_quota"):
		return contract.FailAuth
	case status == http.StatusTooManyRequests:
		return contract.FailRateLimited
	case status >= 500, status == http.StatusConflict, status == http.StatusTooEarly:
		return contract.FailServer
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusPaymentRequired:
		return contract.FailAuth
	case status == http.StatusRequestTimeout:
		return contract.FailTimeout
	case status == http.StatusRequestEntityTooLarge, ContextOverflow(msg):
		return contract.FailContextOverflow
	default:
		return contract.FailInvalidRequest
	}
}

// FrameKind maps the type or code of an in-stream error frame to a kind.
func FrameKind(typ, msg string) contract.FailureKind {
	switch {
	case ContextOverflow(typ + " " + msg):
		return contract.FailContextOverflow
	case strings.Contains(typ, "rate_limit"):
		return contract.FailRateLimited
	case strings.Contains(typ, "auth"), strings.Contains(typ, "permission"):
		return contract.FailAuth
	case strings.Contains(typ, "invalid_request"):
		return contract.FailInvalidRequest
	case strings.Contains(typ, "server"), strings.Contains(typ, "overloaded"), strings.Contains(typ, "api_error"):
		return contract.FailServer
	default:
		return contract.FailStream
	}
}

// overflowPhrases are the ways OpenAI, Anthropic and the servers and
// proxies that copy them say the prompt does not fit; llama.cpp's server
// says it "exceeds the available context size", and Anthropic, when the
// prompt plus max_tokens does not fit, that they "exceed context limit".
var overflowPhrases = []string{"context_length_exceeded", "context length", "context window", "context size", "context limit", "maximum context", "prompt is too long", "too many tokens"}

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
