package conductor_test

import (
	"context"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
)

// roundTripModel answers a parent that makes one call (the echo tool or
// the delegate) and then answers, and a child that answers at once.
func roundTripModel(tool string) *scripted.Script {
	return scripted.Func(func(req contract.ModelRequest) scripted.Reply {
		turns := req.History.Turns()
		switch {
		case req.System == "child":
			return scripted.Reply{Text: "child answer"}
		case turns[len(turns)-1].Role == contract.RoleTool:
			return scripted.Reply{Text: "done"}
		}
		args := `{"text":"x"}`
		if tool != "echo" {
			args = `{"task":"x"}`
		}
		return scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: tool, Arguments: args}}}
	})
}

// BenchmarkDelegationRoundTrip is one run whose model makes one call and
// answers: the call is a plain tool (tool), or a delegate whose child run
// answers in one model turn (delegate). bare is the tool run by hand.
func BenchmarkDelegationRoundTrip(b *testing.B) {
	cfg := contract.AgentConfig{Model: "scripted", System: "parent", Delegates: []contract.Delegate{
		{Name: "helper", Config: contract.AgentConfig{Model: "scripted", System: "child"}},
	}}
	for _, tool := range []string{"echo", "delegate_helper"} {
		name := "call=tool"
		if tool != "echo" {
			name = "call=delegate"
		}
		b.Run(name, func(b *testing.B) {
			box := toolBox(b, echoTool(b))
			model := roundTripModel(tool)
			b.ReportAllocs()
			for b.Loop() {
				a, err := conductor.CreateAgent(cfg, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: box}, Env: conductor.Env{IDs: &conductor.CountingIDs{}}})
				if err != nil {
					b.Fatal(err)
				}
				snap, err := a.Submit(context.Background(), conductor.Text("go"))
				if err != nil || results(snap)[0].IsError {
					b.Fatalf("err %v results %+v", err, results(snap))
				}
				_ = a.Close()
			}
		})
	}
	b.Run("call=bare", func(b *testing.B) {
		echo := echoTool(b)
		model := roundTripModel("echo")
		b.ReportAllocs()
		for b.Loop() {
			history := []contract.Turn{contract.UserText("go")}
			for {
				var calls []contract.ToolCall
				var text string
				for ch, err := range model.Stream(context.Background(), contract.ModelRequest{System: "parent", History: contract.HistoryOf(history...)}) {
					if err != nil {
						b.Fatal(err)
					}
					switch ch.Kind {
					case turn.ChunkText:
						text += ch.Text
					case turn.ChunkToolCallStart:
						calls = append(calls, contract.ToolCall{ID: ch.CallID, Name: ch.Name})
					case turn.ChunkToolCallArgs:
						calls[ch.Index].Arguments += ch.Text
					}
				}
				reply := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock(text)}}
				for _, c := range calls {
					reply.Blocks = append(reply.Blocks, contract.CallBlock(c))
				}
				history = append(history, reply)
				if len(calls) == 0 {
					break
				}
				out, _ := echo.Call(context.Background(), []byte(calls[0].Arguments))
				history = append(history, contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: calls[0].ID, Name: "echo", Content: out.Content})}})
			}
		}
	})
}
