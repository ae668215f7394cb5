package compactor_test

import "github.com/batonrt/baton/contract"

func user(s string) contract.Turn { return contract.UserText(s) }

func assistant(s string) contract.Turn {
	return contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock(s)}}
}

// calling returns an assistant turn calling the tool once per id.
func calling(ids ...string) contract.Turn {
	t := contract.Turn{Role: contract.RoleAssistant}
	for _, id := range ids {
		t.Blocks = append(t.Blocks, contract.CallBlock(contract.ToolCall{ID: id, Name: "read", Arguments: `{"path":"` + id + `"}`}))
	}
	return t
}

// results returns a tool turn answering each id.
func results(ids ...string) contract.Turn {
	t := contract.Turn{Role: contract.RoleTool}
	for _, id := range ids {
		t.Blocks = append(t.Blocks, contract.ResultBlock(contract.ToolResult{CallID: id, Name: "read", Content: "contents of " + id}))
	}
	return t
}

func marked(mark contract.TurnMark, s string) contract.Turn {
	t := contract.UserText(s)
	t.Mark = mark
	return t
}
