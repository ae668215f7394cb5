package openai

import (
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
)

// resultContent is a tool result's text as sent. Chat Completions has no
// error flag on a tool message, so a failed call's text says it failed;
// otherwise the model takes the error for the tool's answer.
func resultContent(r contract.ToolResult) string {
	if !r.IsError {
		return r.Content
	}
	call := "the tool call"
	if r.Name != "" {
		call = "the call of " + r.Name
	}
	if strings.TrimSpace(r.Content) == "" {
		return call + " failed and said nothing more"
	}
	return fmt.Sprintf("%s failed: %s", call, r.Content)
}
