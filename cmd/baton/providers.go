package main

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/batonrt/baton/provider/anthropic"
	"github.com/batonrt/baton/provider/openai"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// Default models per provider, when --model is not given.
const (
	defaultOpenAIModel    = "gpt-4o-mini"
	defaultAnthropicModel = "claude-sonnet-4-5"
)

// providerSpec is what the run flags say about the model.
type providerSpec struct {
	name    string
	model   string
	baseURL string
	script  string
	// openAIRules names the openai.Rules the OpenAI provider follows;
	// empty keeps its default.
	openAIRules string
}

// openAIRulesHelp is the help of --openai-rules, shared by run and serve.
const openAIRulesHelp = "with --provider openai, which rules say what a model takes: host (OpenAI's rules for its model names at api.openai.com only), openai (at any host, e.g. an Azure deployment named after its model) or compatible (none, the output limit sent as max_tokens) (default host)"

// openProvider builds the named provider, reading keys from the
// environment. A missing key is an error here, before any run starts.
func openProvider(p providerSpec) (turn.Provider, string, error) {
	// A flag of another provider would be ignored, and the run go to a
	// model other than the one the user meant.
	switch {
	case p.name != "openai" && p.name != "anthropic" && p.name != "scripted":
		return nil, "", &usageError{msg: fmt.Sprintf("unknown provider %q: want openai, anthropic or scripted", p.name)}
	case p.openAIRules != "" && p.name != "openai":
		return nil, "", &usageError{msg: fmt.Sprintf("--openai-rules is for --provider openai, not %s", p.name)}
	case p.script != "" && p.name != "scripted":
		return nil, "", &usageError{msg: fmt.Sprintf("--script is for --provider scripted, not %s", p.name)}
	case p.baseURL != "" && p.name == "scripted":
		return nil, "", &usageError{msg: "--base-url is for --provider openai or anthropic, not scripted"}
	}
	switch p.name {
	case "openai":
		baseURL := p.baseURL
		if baseURL == "" {
			// Read as the provider reads it: trimmed, and none when blank.
			baseURL = strings.TrimSpace(os.Getenv("OPENAI_BASE_URL"))
		}
		key := strings.TrimSpace(os.Getenv("OPENAI_API_KEY"))
		if key == "" && baseURL == "" {
			return nil, "", fmt.Errorf("--provider openai: OPENAI_API_KEY is not set (or give --base-url for a local OpenAI-compatible server)")
		}
		// A base URL spares the key only for a server that may take none:
		// OpenAI's own would answer every try 401.
		if key == "" && isOpenAIAPI(baseURL) {
			return nil, "", fmt.Errorf("--provider openai: OPENAI_API_KEY is not set, and api.openai.com needs it")
		}
		var opts []endpoint.Option
		if p.baseURL != "" {
			opts = append(opts, endpoint.BaseURL(p.baseURL))
		}
		rules := openai.RulesByHost
		if p.openAIRules != "" {
			var err error
			if rules, err = openai.ParseRules(p.openAIRules); err != nil {
				return nil, "", &usageError{msg: fmt.Sprintf("--openai-rules: %v", err)}
			}
		}
		return openai.NewFromEnv(opts...).WithRules(rules), orDefault(p.model, defaultOpenAIModel), nil
	case "anthropic":
		baseURL := p.baseURL
		if baseURL == "" {
			baseURL = os.Getenv("ANTHROPIC_BASE_URL")
		}
		// A gateway that adds its own credentials takes none from here;
		// Anthropic's own API would answer every try 401.
		if strings.TrimSpace(os.Getenv("ANTHROPIC_API_KEY")) == "" && (strings.TrimSpace(baseURL) == "" || isAnthropicAPI(baseURL)) {
			return nil, "", fmt.Errorf("--provider anthropic: ANTHROPIC_API_KEY is not set (or give --base-url for a gateway that adds it)")
		}
		var opts []endpoint.Option
		if p.baseURL != "" {
			opts = append(opts, endpoint.BaseURL(p.baseURL))
		}
		return anthropic.NewFromEnv(opts...), orDefault(p.model, defaultAnthropicModel), nil
	case "scripted":
		return openScripted(p)
	}
	return nil, "", fmt.Errorf("unknown provider %q", p.name)
}

// isOpenAIAPI says whether baseURL is OpenAI's own API, api.openai.com or
// one of its regional hosts, as the openai provider tells it.
func isOpenAIAPI(baseURL string) bool {
	host := hostOf(baseURL)
	return host == "api.openai.com" || strings.HasSuffix(host, ".api.openai.com")
}

// isAnthropicAPI says whether baseURL is Anthropic's own API.
func isAnthropicAPI(baseURL string) bool { return hostOf(baseURL) == "api.anthropic.com" }

// hostOf is baseURL's host as DNS reads it: lower case, without a final
// dot; empty for a URL that does not parse.
func hostOf(baseURL string) string {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}
