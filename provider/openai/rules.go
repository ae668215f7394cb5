package openai

import (
	"fmt"
	"strings"
)

// Rules says how a provider decides what a model takes: which of
// OpenAI's rules for its model names it follows, and what it calls the
// output limit.
type Rules int

const (
	// RulesByHost, the default, follows OpenAI's rules at OpenAI's own
	// API only (see isOpenAIAPI), and sends any other server what was
	// asked; the output limit goes as max_completion_tokens.
	RulesByHost Rules = iota
	// RulesOpenAI follows OpenAI's rules at any server, for one whose
	// model names are OpenAI's: an Azure OpenAI deployment named after
	// its model, or a gateway passing requests on to OpenAI.
	RulesOpenAI
	// RulesCompatible sends what was asked at any server, and the output
	// limit as max_tokens, the older name that servers which do not know
	// max_completion_tokens take (older vLLM and gateways, Azure OpenAI's
	// older API versions).
	RulesCompatible
)

var ruleNames = []string{RulesByHost: "host", RulesOpenAI: "openai", RulesCompatible: "compatible"}

// String is the rules' name, as ParseRules reads it.
func (r Rules) String() string {
	if r < 0 || int(r) >= len(ruleNames) {
		return fmt.Sprintf("Rules(%d)", int(r))
	}
	return ruleNames[r]
}

// ParseRules reads rules by name: host, openai or compatible.
func ParseRules(name string) (Rules, error) {
	for r, n := range ruleNames {
		if strings.EqualFold(name, n) {
			return Rules(r), nil
		}
	}
	return RulesByHost, fmt.Errorf("openai: unknown rules %q: want %s", name, strings.Join(ruleNames, ", "))
}

// sending is what the rules decide for one provider's requests.
type sending struct {
	// modelRules says whether the options a model refuses by OpenAI's
	// rules are refused, and the defaults it refuses to be told left
	// off.
	modelRules bool
	// maxTokens sends the output limit as max_tokens.
	maxTokens bool
	// reasoningBack sends an assistant message's reasoning back with it
	// as reasoning_content, which DeepSeek's and Kimi's thinking models
	// require of a message that called tools and other servers refuse
	// (Cerebras, OpenAI).
	reasoningBack bool
	// refusal, when set, says why every request is refused: the rules
	// are none of the known ones, and following none of OpenAI's rules
	// quietly, even at its own API, would hide that.
	refusal string
}

// at is what r decides for requests to a server, atOpenAI saying
// whether it is OpenAI's own API.
func (r Rules) at(atOpenAI bool) sending {
	if r < 0 || int(r) >= len(ruleNames) {
		return sending{refusal: fmt.Sprintf("the provider's rules %v are unknown: want %s (see WithRules)", r, strings.Join(ruleNames, ", "))}
	}
	return sending{modelRules: r == RulesOpenAI || r == RulesByHost && atOpenAI, maxTokens: r == RulesCompatible}
}
