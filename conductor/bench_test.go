package conductor_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
)

// benchScript is turns-1 replies calling the echo tool `tools` times with
// fresh arguments (so the loop guard stays quiet), then a final answer.
func benchScript(turns, tools int) *scripted.Script {
	replies := make([]scripted.Reply, 0, turns)
	for i := 0; i < turns-1; i++ {
		var calls []scripted.Call
		for j := 0; j < tools; j++ {
			calls = append(calls, scripted.Call{ID: fmt.Sprintf("c%d_%d", i, j), Name: "echo", Arguments: fmt.Sprintf(`{"text":"turn %d call %d"}`, i, j)})
		}
		replies = append(replies, scripted.Reply{Calls: calls, Usage: contract.Usage{InputTokens: 100, OutputTokens: 10}})
	}
	replies = append(replies, scripted.Reply{Text: "all done", Usage: contract.Usage{InputTokens: 100, OutputTokens: 3}})
	return scripted.New(replies...)
}

func benchAgent(b *testing.B, p turn.Provider, box *dispatch.ToolBox, turns int) *conductor.Agent {
	a, err := conductor.CreateAgent(
		contract.AgentConfig{Model: "scripted", MaxTurns: turns + 1},
		conductor.Deps{Model: conductor.Model{Provider: p}, Tools: conductor.Tools{Box: box}, Env: conductor.Env{IDs: &conductor.CountingIDs{}}})
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkRun drives whole runs through the public API: scripted model,
// echo tool, in-memory store. ns/turn and allocs/turn are per model call.
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct{ turns, tools int }{{10, 1}, {50, 4}, {400, 1}} {
		b.Run(fmt.Sprintf("turns=%d/tools=%d", c.turns, c.tools), func(b *testing.B) {
			box := toolBox(b, echoTool(b))
			b.ReportAllocs()
			for b.Loop() {
				a := benchAgent(b, benchScript(c.turns, c.tools), box, c.turns)
				snap, err := a.Submit(context.Background(), conductor.Text("go"))
				if err != nil || snap.Turns != c.turns {
					b.Fatalf("err %v turns %d", err, snap.Turns)
				}
				_ = a.Close()
			}
			perTurn(b, c.turns)
		})
	}
}

// BenchmarkBareLoop is the same work by hand: the same scripted stream
// read and assembled, the same tool called directly, history an
// append-only slice; no store, no events, no scheduler, no checks.
func BenchmarkBareLoop(b *testing.B) {
	for _, c := range []struct{ turns, tools int }{{10, 1}, {50, 4}, {400, 1}} {
		b.Run(fmt.Sprintf("turns=%d/tools=%d", c.turns, c.tools), func(b *testing.B) {
			echo := echoTool(b)
			b.ReportAllocs()
			for b.Loop() {
				p := benchScript(c.turns, c.tools)
				var history []contract.Turn
				history = append(history, contract.UserText("go"))
				for {
					reply := contract.Turn{Role: contract.RoleAssistant}
					var text string
					var calls []contract.ToolCall
					for ch, err := range p.Stream(context.Background(), contract.ModelRequest{History: contract.HistoryOf(history[len(history)-1])}) {
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
					reply.Blocks = append(reply.Blocks, contract.TextBlock(text))
					for _, call := range calls {
						reply.Blocks = append(reply.Blocks, contract.CallBlock(call))
					}
					history = append(history, reply)
					if len(calls) == 0 {
						break
					}
					results := contract.Turn{Role: contract.RoleTool}
					for _, call := range calls {
						out, _ := echo.Call(context.Background(), []byte(call.Arguments))
						results.Blocks = append(results.Blocks, contract.ResultBlock(contract.ToolResult{CallID: call.ID, Name: call.Name, Content: out.Content}))
					}
					history = append(history, results)
				}
			}
			perTurn(b, c.turns)
		})
	}
}

func perTurn(b *testing.B, turns int) {
	// b.Elapsed and the alloc counts are for all b.N runs.
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*turns), "ns/turn")
}

// BenchmarkConcurrentAgents runs many agents at once, each its own
// session of three model turns with one tool call each.
func BenchmarkConcurrentAgents(b *testing.B) {
	const agents = 1000
	b.Run(fmt.Sprintf("agents=%d", agents), func(b *testing.B) {
		box := toolBox(b, echoTool(b))
		b.ReportAllocs()
		for b.Loop() {
			var wg sync.WaitGroup
			errs := make(chan error, agents)
			for i := 0; i < agents; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					a := benchAgent(b, benchScript(3, 1), box, 3)
					defer a.Close()
					if _, err := a.Submit(context.Background(), conductor.Text("go")); err != nil {
						errs <- err
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*agents), "ns/agent-run")
	})
}
