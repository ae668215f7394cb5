package contract

import "strings"

// Plain says why a run did not settle as a person reads it, once: a
// model failure's message, "rate_limited: turn: provider rate_limited
// (status 429): slow down", names its failure twice behind a package
// prefix and reads "the model failed: rate limited (HTTP 429): slow
// down"; an abort reads "stopped"; anything else "KIND: MESSAGE".
func (e *RunError) Plain() string {
	switch {
	case e == nil:
		return "failed for an unknown reason"
	case e.Kind == KindAborted:
		return "stopped"
	case e.Kind == KindModel:
		msg := e.Message
		if _, rest, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(rest, providerPrefix) {
			msg = rest
		}
		return "the model failed: " + PlainProviderError(msg)
	}
	return string(e.Kind) + ": " + e.Message
}

// providerPrefix begins the text of a turn.ProviderError.
const providerPrefix = "turn: provider "

// PlainProviderError rewrites the text of a provider failure (a
// turn.ProviderError), "turn: provider rate_limited (status 429): slow
// down", as "rate limited (HTTP 429): slow down"; other text is kept.
func PlainProviderError(s string) string {
	rest, ok := strings.CutPrefix(s, providerPrefix)
	if !ok {
		return s
	}
	kind, detail, _ := strings.Cut(rest, ": ")
	kind = strings.ReplaceAll(strings.Replace(kind, "(status ", "(HTTP ", 1), "_", " ")
	if detail == "" {
		return kind
	}
	return kind + ": " + detail
}
