package main

import (
	"strings"

	"github.com/batonrt/baton/contract"
)

// maxErrorText bounds an error shown on the terminal: a provider's error
// body can be long, and what matters is at its start.
const maxErrorText = 400

// providerText rewrites a provider failure, "turn: provider rate_limited
// (status 429): slow down", as "rate limited (HTTP 429): slow down": the
// package prefixes and the repeated kind say nothing to a user.
func providerText(s string) string {
	rest, ok := strings.CutPrefix(s, "turn: provider ")
	if !ok {
		return oneLine(s, maxErrorText)
	}
	kind, detail, _ := strings.Cut(rest, ": ")
	kind = strings.ReplaceAll(strings.Replace(kind, "(status ", "(HTTP ", 1), "_", " ")
	if detail == "" {
		return oneLine(kind, maxErrorText)
	}
	return oneLine(kind+": "+detail, maxErrorText)
}

// faultText says why a run did not settle, once and plainly.
func faultText(e *contract.RunError) string {
	if e == nil {
		return "failed for an unknown reason"
	}
	msg := e.Message
	switch e.Kind {
	case contract.KindAborted:
		return "stopped"
	case contract.KindModel:
		// The message is "<failure>: <provider error>"; the provider error
		// names the failure again.
		if _, rest, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(rest, "turn: provider ") {
			msg = rest
		}
		return "the model failed: " + providerText(msg)
	}
	return string(e.Kind) + ": " + oneLine(msg, maxErrorText)
}
