package transcripttest

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// Histories sends the suite's request with histories drawn by History
// through the turn driver, as a run does, and straight to the provider,
// as a program that uses it alone does, and hands each request body the
// provider put on the wire to check.
func (s Suite) Histories(t *testing.T, check func(t *rapid.T, body []byte)) {
	srv, p := s.Serve(t, "text")
	d := turn.NewDriver(p, turn.Options{})
	rapid.Check(t, func(rt *rapid.T) {
		req := s.Request()
		req.History = History().Draw(rt, "history")
		if sig, ok := d.Run(context.Background(), req, nil).(contract.ModelReplied); !ok {
			rt.Fatalf("the call through the driver failed: %+v", sig)
		}
		check(rt, srv.Request(srv.Served()-1))
		if _, err := Collect(context.Background(), p, req); err != nil {
			rt.Fatalf("the call straight to the provider failed: %v", err)
		}
		check(rt, srv.Request(srv.Served()-1))
	})
}

// History draws histories as a host may hand them to the turn driver,
// well formed or not: user turns (steering, follow-ups, notes) between a
// call and its results, tool turns holding text before their results,
// results for calls already answered or never made, calls left without
// results, blank results, blank user turns, blank text before calls,
// and a first turn that is blank, the assistant's, or none at all. Call
// ids are unique, as the APIs require. A property over a provider's
// requests checks that what the driver sends, after turn.Sanitize, is a
// request the API takes.
func History() *rapid.Generator[contract.History] {
	return rapid.Custom(func(t *rapid.T) contract.History {
		var turns []contract.Turn
		switch rapid.SampledFrom([]string{"user", "blank", "none"}).Draw(t, "first") {
		case "user":
			turns = append(turns, contract.UserText("go"))
		case "blank":
			turns = append(turns, blankUserTurn(t))
		}
		var ids []string
		for i := range rapid.IntRange(1, 8).Draw(t, "turns") {
			switch rapid.SampledFrom([]string{"user", "blank", "assistant", "tool"}).Draw(t, "role") {
			case "user":
				turns = append(turns, contract.UserText(fmt.Sprintf("note %d", i)))
			case "blank":
				turns = append(turns, blankUserTurn(t))
			case "assistant":
				text := rapid.SampledFrom([]string{fmt.Sprintf("reply %d", i), "", " \n"}).Draw(t, "reply")
				blocks := []contract.Block{contract.TextBlock(text)}
				for k := range rapid.IntRange(0, 2).Draw(t, "calls") {
					id := fmt.Sprintf("call_%d_%d", i, k)
					ids = append(ids, id)
					blocks = append(blocks, contract.CallBlock(contract.ToolCall{ID: id, Name: "get_weather", Arguments: `{}`}))
				}
				turns = append(turns, contract.Turn{Role: contract.RoleAssistant, Blocks: blocks})
			default:
				turns = append(turns, toolTurn(t, i, append(ids, "call_unknown")))
			}
		}
		return contract.HistoryOf(turns...)
	})
}

// blankUserTurn draws a user turn with nothing to say: no blocks, empty
// text or whitespace, as a host may record a cleared input.
func blankUserTurn(t *rapid.T) contract.Turn {
	blank := contract.Turn{Role: contract.RoleUser}
	if text := rapid.SampledFrom([]string{"none", "", " ", "\n\t"}).Draw(t, "blank"); text != "none" {
		blank.Blocks = []contract.Block{contract.TextBlock(text)}
	}
	return blank
}

// toolTurn draws a tool turn answering some of ids, with text before or
// after its results, some of them blank, as a tool that printed nothing
// leaves them.
func toolTurn(t *rapid.T, i int, ids []string) contract.Turn {
	var blocks []contract.Block
	for range rapid.IntRange(0, 2).Draw(t, "results") {
		id := rapid.SampledFrom(ids).Draw(t, "answers")
		content := rapid.SampledFrom([]string{"18C", ""}).Draw(t, "content")
		blocks = append(blocks, contract.ResultBlock(contract.ToolResult{CallID: id, Name: "get_weather", Content: content}))
	}
	text := contract.TextBlock(fmt.Sprintf("aside %d", i))
	switch rapid.IntRange(0, 2).Draw(t, "aside") {
	case 1:
		blocks = append([]contract.Block{text}, blocks...)
	case 2:
		blocks = append(blocks, text)
	}
	return contract.Turn{Role: contract.RoleTool, Blocks: blocks}
}
