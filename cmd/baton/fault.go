package main

import "github.com/batonrt/baton/contract"

// maxErrorText bounds an error shown on the terminal: a provider's error
// body can be long, and what matters is at its start.
const maxErrorText = 400

// providerText is a provider failure as a user reads it, on one line.
func providerText(s string) string {
	return oneLine(contract.PlainProviderError(s), maxErrorText)
}

// faultText says why a run did not settle, once and plainly, on one line.
func faultText(e *contract.RunError) string {
	return oneLine(e.Plain(), maxErrorText)
}
