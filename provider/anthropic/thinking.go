package anthropic

import (
	"fmt"
	"slices"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/batonrt/baton/contract"
)

// MinThinkingTopP is the smallest top_p the Messages API takes with
// extended thinking.
const MinThinkingTopP = 0.95

// thinkingConflicts names the options the Messages API answers with 400
// when extended thinking is on: a temperature other than 1, a top_p below
// MinThinkingTopP, and a tool choice that forces a tool call. forcing
// says whether a forcing tool choice would be sent (it is not without
// tools).
func thinkingConflicts(thinking contract.ThinkingLevel, s contract.Sampling, forcing bool) []contract.FieldError {
	if thinking == contract.ThinkingOff {
		return nil
	}
	var bad []contract.FieldError
	add := func(field, rule, got string) {
		reason := fmt.Sprintf("%s with extended thinking (Thinking %q), got %s", rule, thinking, got)
		bad = append(bad, contract.FieldError{Field: field, Reason: reason})
	}
	if t := s.Temperature; t != nil && *t != 1 {
		add("Sampling.Temperature", "must be 1 or unset", fmt.Sprint(*t))
	}
	if p := s.TopP; p != nil && *p < MinThinkingTopP {
		add("Sampling.TopP", fmt.Sprintf("must be in [%g, 1] or unset", MinThinkingTopP), fmt.Sprint(*p))
	}
	_, named := s.ToolChoice.Tool()
	if forcing && (named || s.ToolChoice == contract.ToolChoiceRequired) {
		add("Sampling.ToolChoice", "must be auto, none or unset: the API cannot force a tool call", fmt.Sprintf("%q", s.ToolChoice))
	}
	return bad
}

// toolLoopWithoutThinking says whether msgs end in a tool loop whose
// first assistant message does not start with a thinking block: the last
// user message holds tool results, and the assistant message that began
// the loop was written by another provider (whose thinking is unsigned
// and not sent) or before thinking was switched on. With thinking on the
// API refuses such a request ("a final assistant message must start with
// a thinking block"), and advises leaving thinking off for it. A loop is
// one assistant turn, which keeps one thinking configuration: without
// interleaved thinking Claude thinks only in the loop's first reply, so
// the replies after it, which carry no thinking, do not switch it off.
func toolLoopWithoutThinking(msgs []sdk.MessageParam) bool {
	first := -1
	for i := len(msgs) - 1; i >= 1 && answersTools(msgs[i]) && msgs[i-1].OfAssistant != nil; i -= 2 {
		first = i - 1
	}
	if first < 0 {
		return false
	}
	b := msgs[first].OfAssistant.Content[0]
	return b.OfThinking == nil && b.OfRedactedThinking == nil
}

// answersTools says whether m is a user message holding tool results.
func answersTools(m sdk.MessageParam) bool {
	return m.OfUser != nil && slices.ContainsFunc(m.OfUser.Content, func(b sdk.ContentBlockParamUnion) bool { return b.OfToolResult != nil })
}

// requestThinking is the thinking level a request goes with: level,
// unless msgs end in a tool loop without thinking.
func requestThinking(level contract.ThinkingLevel, msgs []sdk.MessageParam) (contract.ThinkingLevel, error) {
	if level == contract.ThinkingOff {
		return level, nil
	}
	if _, ok := ThinkingBudget[level]; !ok {
		return level, fmt.Errorf("%w: unknown thinking level %q", ErrBadRequest, level)
	}
	if toolLoopWithoutThinking(msgs) {
		return contract.ThinkingOff, nil
	}
	return level, nil
}
