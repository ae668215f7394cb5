package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/contract"
)

// outcome flattens a result into the text a tool outcome holds: text as
// it is, a text resource under a line naming it, and a note for what only
// bytes can carry. With no content, structured content is the JSON.
func outcome(res *sdk.CallToolResult) contract.ToolOutcome {
	parts := make([]string, 0, len(res.Content))
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	return contract.ToolOutcome{Content: strings.Join(parts, "\n"), IsError: res.IsError}
}

func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes, not shown]", orUnknown(c.MIMEType), len(c.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes, not played]", orUnknown(c.MIMEType), len(c.Data))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource %s: %s]", c.URI, c.Name)
	case *sdk.EmbeddedResource:
		return resourceText(c.Resource)
	}
	return fmt.Sprintf("[%T content, not shown]", c)
}

func resourceText(r *sdk.ResourceContents) string {
	switch {
	case r == nil:
		return "[empty resource]"
	case r.Blob != nil:
		return fmt.Sprintf("[resource %s: %s, %d bytes, not shown]", r.URI, orUnknown(r.MIMEType), len(r.Blob))
	}
	return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "of unknown type"
	}
	return mime
}
