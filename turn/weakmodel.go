package turn

import (
	"encoding/json"
	"strings"

	"github.com/batonrt/baton/contract"
)

// Weak and local models call tools in ways the wire format does not
// expect. Two mendings live here: calls named None, null or nothing are
// dropped (a model saying "no tool" in the tool slot), and, when the agent
// opts in, a reply whose whole text is one JSON tool call naming an
// offered tool becomes that call.

// noCall reports whether a tool name means "no tool": empty, None or
// null, in any case, unless a tool of that exact name is offered.
func noCall(name string, known []string) bool {
	name = strings.TrimSpace(name)
	for _, k := range known {
		if k == name {
			return false
		}
	}
	switch strings.ToLower(name) {
	case "", "none", "null", "nil":
		return true
	}
	return false
}

// dropNoCalls removes the calls noCall names from a reply's blocks.
// It filters blocks in place, which the assembler made for this reply.
func dropNoCalls(blocks []contract.Block, known []string) []contract.Block {
	out := blocks[:0]
	for _, b := range blocks {
		if b.Kind == contract.BlockToolCall && b.Call != nil && noCall(b.Call.Name, known) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// textCall is the shape of a tool call written as text: a name and its
// arguments under one of the keys models use for them.
type textCall struct {
	Name       string          `json:"name"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	Parameters json.RawMessage `json:"parameters"`
	Args       json.RawMessage `json:"args"`
	Input      json.RawMessage `json:"input"`
	Function   *textCall       `json:"function"`
}

// parseTextCall reads text that is exactly one JSON tool call, bare or in
// a code fence, naming one of the known tools. Arguments given as a JSON
// string holding an object are unwrapped.
func parseTextCall(text string, known []string) (contract.ToolCall, bool) {
	s := stripFences(strings.TrimSpace(text))
	if !strings.HasPrefix(s, "{") {
		return contract.ToolCall{}, false
	}
	var tc textCall
	dec := json.NewDecoder(strings.NewReader(s))
	// Nothing but space may follow: dec.More would let a text go on
	// after a '}' or ']'.
	if dec.Decode(&tc) != nil || strings.TrimSpace(s[dec.InputOffset():]) != "" {
		return contract.ToolCall{}, false
	}
	if tc.Function != nil {
		tc = *tc.Function
	}
	name := tc.Name
	if name == "" {
		name = tc.Tool
	}
	name, ok := lookup(NormalizeToolName(name, known), known)
	if !ok {
		return contract.ToolCall{}, false
	}
	args := "{}"
	for _, raw := range []json.RawMessage{tc.Arguments, tc.Parameters, tc.Args, tc.Input} {
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		fixed, ok := RepairArguments(string(raw))
		if !ok {
			return contract.ToolCall{}, false
		}
		args = fixed
		break
	}
	return contract.ToolCall{Name: name, Arguments: args}, true
}

// textToolCall turns a reply with no native call whose text is one JSON
// tool call into that call; thinking stays. It reports whether it did.
func textToolCall(blocks []contract.Block, known []string) ([]contract.Block, bool) {
	var text strings.Builder
	for _, b := range blocks {
		switch b.Kind {
		case contract.BlockToolCall:
			return blocks, false
		case contract.BlockText:
			text.WriteString(b.Text)
		}
	}
	call, ok := parseTextCall(text.String(), known)
	if !ok {
		return blocks, false
	}
	out := make([]contract.Block, 0, len(blocks))
	for _, b := range blocks {
		if b.Kind != contract.BlockText {
			out = append(out, b)
		}
	}
	return append(out, contract.CallBlock(call)), true
}
