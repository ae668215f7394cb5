package anthropic

import (
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
)

// MinThinkingBudget is the smallest thinking budget the Messages API
// takes.
const MinThinkingBudget = 1024

// limits is what the API lets one model write.
type limits struct {
	maxTokens int64 // the largest max_tokens
	thinks    bool  // whether it takes extended thinking
}

// limitsOf is model's limits, when it is one whose limits are known.
func limitsOf(model string) (limits, bool) {
	if c, ok := parseClaude(model); ok {
		switch {
		case c.major == 4 && c.minor <= 1 && c.family == "opus":
			return limits{maxTokens: 32000, thinks: true}, true
		case c.major == 4 && (c.minor == 0 || c.minor == 5):
			return limits{maxTokens: 64000, thinks: true}, true
		}
		return limits{}, false
	}
	name := routedName(model)
	switch {
	case strings.HasPrefix(name, "claude-3-7-sonnet"):
		return limits{maxTokens: 64000, thinks: true}, true
	case strings.HasPrefix(name, "claude-3-5-"):
		return limits{maxTokens: 8192}, true
	case strings.HasPrefix(name, "claude-3-"):
		return limits{maxTokens: 4096}, true
	}
	return limits{}, false
}

// answerTokens is the answer's length a request asks for: maxOutput, or
// the default when it is unset.
func answerTokens(maxOutput int) int64 {
	if maxOutput <= 0 {
		return contract.DefaultMaxOutputTokens
	}
	return int64(maxOutput)
}

// thinkingBudget is the budget sent for level: the level's, cut to what
// fits beside the answer under model's cap.
func thinkingBudget(model string, level contract.ThinkingLevel, answer int64) int64 {
	budget := ThinkingBudget[level]
	if l, ok := limitsOf(model); ok && answer+budget > l.maxTokens {
		budget = l.maxTokens - answer
	}
	return budget
}

// limitConflicts names what model cannot write: an answer longer than
// its cap, one that leaves less than MinThinkingBudget under the cap for
// thinking, or thinking on a model that does not think.
func limitConflicts(model string, thinking contract.ThinkingLevel, maxOutput int) []contract.FieldError {
	l, ok := limitsOf(model)
	if !ok {
		return nil
	}
	answer := answerTokens(maxOutput)
	switch {
	case thinking != contract.ThinkingOff && !l.thinks:
		return []contract.FieldError{{Field: "Thinking", Reason: fmt.Sprintf("must be unset: %s has no extended thinking, got %q", model, thinking)}}
	case answer > l.maxTokens:
		return []contract.FieldError{{Field: "MaxOutputTokens", Reason: fmt.Sprintf("must be at most %d for %s, got %d", l.maxTokens, model, answer)}}
	case thinking != contract.ThinkingOff && l.maxTokens-answer < MinThinkingBudget:
		return []contract.FieldError{{Field: "MaxOutputTokens", Reason: fmt.Sprintf("must leave %d of %s's %d tokens for thinking, got %d", MinThinkingBudget, model, l.maxTokens, answer)}}
	}
	return nil
}
