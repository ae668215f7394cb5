package turn_test

import (
	"context"
	"fmt"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func ExampleDriver_Run() {
	p := newFake(
		play{err: &turn.ProviderError{Failure: contract.FailRateLimited, Status: 429, RetryAfter: time.Second}},
		play{chunks: []turn.Chunk{
			text("Checking "), text("Paris."),
			callStart(0, "call_1", "functions.get_weather"), callArgs(0, `{"city": "Paris",`),
			stop(contract.StopToolUse),
		}},
	)
	opts := turn.Options{Sleep: func(_ context.Context, d time.Duration) error {
		fmt.Println("sleep", d)
		return nil
	}}
	sig := turn.NewDriver(p, opts).Run(context.Background(), weatherReq, func(ev *contract.RunEvent) {
		fmt.Printf("%s %q\n", ev.Kind, ev.Text)
	})
	r := sig.(contract.ModelReplied)
	fmt.Println(r.Stop, r.Reply.Text(), r.Reply.Calls())
	// Output:
	// model_retry "turn: provider rate_limited (status 429)"
	// sleep 1s
	// text_delta "Checking "
	// text_delta "Paris."
	// tool_call_delta ""
	// tool_call_delta "{\"city\": \"Paris\","
	// tool_use Checking Paris. [{call_1 get_weather {"city":"Paris"}}]
}

func ExampleNewDriver() {
	d := turn.NewDriver(newFake(play{chunks: []turn.Chunk{text("hi"), stop(contract.StopEndTurn)}}), turn.Options{
		IdleTimeout: 30 * time.Second,
		MaxRetries:  turn.NoRetries,
	})
	fmt.Println(d.Run(context.Background(), weatherReq, nil).SignalKind())
	// Output: model_replied
}

func ExampleSanitize() {
	h := contract.HistoryOf(
		contract.UserText("weather?"),
		contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "gone", Content: "orphan"})}},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: "{}"})}},
	)
	for _, t := range turn.Sanitize(h).Turns() {
		for _, b := range t.Blocks {
			switch b.Kind {
			case contract.BlockToolResult:
				fmt.Println(t.Role, b.Result.CallID, b.Result.IsError, b.Result.Content)
			case contract.BlockToolCall:
				fmt.Println(t.Role, b.Call.ID)
			default:
				fmt.Println(t.Role, b.Text)
			}
		}
	}
	// Output:
	// user weather?
	// assistant call_1
	// tool call_1 true error: no result was recorded for this tool call
}

func ExampleRepairArguments() {
	for _, s := range []string{`{"city": "Paris"`, `{'city': 'Paris',}`, "```json\n{\"city\":\"Paris\"}\n```", ``, `city=Paris`} {
		fixed, ok := turn.RepairArguments(s)
		fmt.Println(fixed, ok)
	}
	// Output:
	// {"city":"Paris"} true
	// {"city":"Paris"} true
	// {"city":"Paris"} true
	// {} true
	//  false
}

func ExampleNormalizeToolName() {
	known := []string{"get_weather"}
	fmt.Println(turn.NormalizeToolName(" functions.Get_Weather ", known))
	// Output: get_weather
}

func ExampleSummarize() {
	p := newFake(play{chunks: []turn.Chunk{text("The user asked about Paris weather; it is sunny."), stop(contract.StopEndTurn)}})
	s, err := turn.Summarize(context.Background(), p, "m", "user: weather in Paris?\nassistant: sunny", turn.Options{})
	fmt.Println(s, err)
	// Output: The user asked about Paris weather; it is sunny. <nil>
}

func ExampleFailureForStatus() {
	fmt.Println(turn.FailureForStatus(429), turn.FailureForStatus(503), turn.FailureForStatus(401))
	// Output: rate_limited server auth
}
