package openai

import (
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
)

// resultContent is a tool result's text as sent. Chat Completions has no
// error flag on a tool message, so a failed call's text says it failed;
// otherwise the model takes the error for the tool's answer. A blank
// result says the call returned nothing, as servers such as LM Studio's
// refuse blank content.
func resultContent(r contract.ToolResult) string {
	call := "the tool call"
	if r.Name != "" {
		call = "the call of " + r.Name
	}
	blank := strings.TrimSpace(r.Content) == ""
	switch {
	case r.IsError && blank:
		return call + " failed and said nothing more"
	case r.IsError:
		return fmt.Sprintf("%s failed: %s", call, r.Content)
	case blank:
		return call + " returned nothing"
	}
	return r.Content
}
