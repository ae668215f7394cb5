package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// maxName is the longest tool name providers accept.
const maxName = 64

// tool calls one tool of a server.
type tool struct {
	src    *Source
	remote string // the name the server knows
	d      contract.ToolDescriptor
}

func (s *Source) tool(t *sdk.Tool) (*tool, error) {
	d := contract.ToolDescriptor{
		Name:          localName(s.srv.Prefix, t.Name),
		Description:   t.Description,
		NeedsApproval: s.srv.NeedsApproval,
		Timeout:       s.srv.Timeout,
	}
	if d.Description == "" && t.Title != "" {
		d.Description = t.Title
	}
	if t.InputSchema != nil {
		schema, err := inputSchema(t.InputSchema)
		if err != nil {
			return nil, err
		}
		d.InputSchema = schema
	}
	if !contract.ValidToolName(d.Name) {
		return nil, fmt.Errorf("name %q cannot be made a valid tool name", t.Name)
	}
	if s.srv.CheckTool != nil {
		if err := s.srv.CheckTool(d); err != nil {
			return nil, err
		}
	}
	return &tool{src: s, remote: t.Name, d: d}, nil
}

// localName is prefix+name with every character a provider refuses in a
// tool name made '_', cut to the length providers accept.
func localName(prefix, name string) string {
	var b strings.Builder
	for _, r := range prefix + name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > maxName {
		s = s[:maxName]
	}
	return s
}

func (t *tool) Descriptor() contract.ToolDescriptor { return t.d }

// Call sends the call to the server, starting its command again first
// if it ended. A server that is gone, a tool it no longer offers, a call
// that fails in transport and a cancelled call are errors, which the
// scheduler makes error outcomes; a result the server flags as an error
// is an error outcome too, and so are arguments that are not one JSON
// object, which are not sent. The errors leave out the server's URL
// (see urlHider).
func (t *tool) Call(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error) {
	o, err := t.call(ctx, args)
	return o, t.src.urls.hide(err)
}

func (t *tool) call(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error) {
	// The model's mistake, told to it as a typed tool tells it, before a
	// server is started again for a call that cannot be sent.
	args, err := dispatch.ObjectArgs(args)
	if err != nil {
		return contract.ToolOutcome{Content: err.Error(), IsError: true}, nil
	}
	c, err := t.src.live(ctx)
	if err != nil {
		return contract.ToolOutcome{}, err
	}
	if err := t.src.offers(ctx, t.remote); err != nil {
		return contract.ToolOutcome{}, err
	}
	notices := t.src.noticesSeen()
	if c.cmd != nil {
		// The SDK writes the request with no regard for ctx.
		done := make(chan struct{})
		defer context.AfterFunc(ctx, func() { c.cmd.unblock(done) })()
		defer close(done)
	}
	res, err := c.session.CallTool(ctx, &sdk.CallToolParams{Name: t.remote, Arguments: args})
	t.src.awaitReport(ctx, notices)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			if !errors.Is(err, cerr) {
				err = fmt.Errorf("%w: %w", cerr, err)
			}
			return contract.ToolOutcome{}, fmt.Errorf("mcp: %s on server %q: %w", t.remote, t.src.srv.Name, err)
		}
		if dead := c.endedUnder(t.src.srv.Name, err); dead != nil {
			return contract.ToolOutcome{}, dead
		}
		t.src.log.Error("mcp: tool call failed", "server", t.src.srv.Name, "tool", t.remote, "err", err)
		return contract.ToolOutcome{}, fmt.Errorf("mcp: %s on server %q: %w", t.remote, t.src.srv.Name, err)
	}
	o := outcome(res)
	if o.IsError && strings.TrimSpace(o.Content) == "" {
		// An empty error result tells the model nothing it can act on.
		o.Content = fmt.Sprintf("mcp: %s on server %q failed and said nothing more", t.remote, t.src.srv.Name)
	}
	return o, nil
}

// uniqueNames gives the tools whose local names came out alike distinct
// names. A tool whose name needed no change keeps it; the others get a
// suffix made from a hash of their own server's name, so that a tool's
// name does not depend on the order of the listing and is the same each
// time the server starts, which replaying a recorded session needs.
func uniqueNames(tools []*tool, prefix string) {
	byName := map[string][]*tool{}
	for _, t := range tools {
		byName[t.d.Name] = append(byName[t.d.Name], t)
	}
	for name, same := range byName {
		if len(same) < 2 {
			continue
		}
		for _, t := range same {
			if prefix+t.remote == name {
				continue
			}
			sum := sha256.Sum256([]byte(t.remote))
			suffix := "_" + hex.EncodeToString(sum[:4])
			t.d.Name = name[:min(len(name), maxName-len(suffix))] + suffix
		}
	}
}
