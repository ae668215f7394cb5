package scripted_test

import (
	"context"
	"fmt"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
)

func ExampleNew() {
	s := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
		scripted.Reply{Text: "Sunny in Paris."},
	)
	d := turn.NewDriver(s, turn.Options{})
	for range 2 {
		r := d.Run(context.Background(), req("weather?"), nil).(contract.ModelReplied)
		fmt.Printf("%s %v %q\n", r.Stop, r.Reply.Calls(), r.Reply.Text())
	}
	// Output:
	// tool_use [{call_1 get_weather {"city":"Paris"}}] ""
	// end_turn [] "Sunny in Paris."
}

func ExampleParse() {
	s, err := scripted.Parse([]byte(`{"replies": [
		{"fail": {"status": 503, "message": "overloaded"}},
		{"text": "Recovered."}
	]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := turn.Options{Sleep: func(context.Context, time.Duration) error { return nil }}
	r := turn.NewDriver(s, opts).Run(context.Background(), req("hi"), func(ev *contract.RunEvent) {
		if ev.Kind == contract.EvModelRetry {
			fmt.Println("retry:", ev.Text)
		}
	})
	fmt.Println(r.(contract.ModelReplied).Reply.Text())
	// Output:
	// retry: turn: provider server (status 503): overloaded
	// Recovered.
}

func ExampleLoad() {
	s, err := scripted.Load("testdata/conformance/thinking.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := turn.NewDriver(s, turn.Options{}).Run(context.Background(), req("think"), nil).(contract.ModelReplied)
	fmt.Printf("%q %q %q\n", r.Reply.Blocks[0].Text, r.Reply.Blocks[0].Signature, r.Reply.Text())
	// Output: "Let me think." "sig-1" "Done."
}

func ExampleRepeat() {
	s := scripted.Repeat(scripted.Reply{Text: "again"}, 2)
	d := turn.NewDriver(s, turn.Options{})
	for range 3 {
		switch sig := d.Run(context.Background(), req("x"), nil).(type) {
		case contract.ModelReplied:
			fmt.Println(sig.Reply.Text())
		case contract.ModelFailed:
			fmt.Println(sig.Failure, sig.Message)
		}
	}
	// Output:
	// again
	// again
	// invalid_request turn: provider invalid_request: scripted: script exhausted
}

func ExampleFunc() {
	s := scripted.Func(func(r contract.ModelRequest) scripted.Reply {
		return scripted.Reply{Text: fmt.Sprintf("turn %d", r.Turn)}
	})
	r := turn.NewDriver(s, turn.Options{}).Run(context.Background(), req("x"), nil).(contract.ModelReplied)
	fmt.Println(r.Reply.Text())
	// Output: turn 1
}

func ExampleEcho() {
	r := turn.NewDriver(scripted.Echo(), turn.Options{}).Run(context.Background(), req("say this"), nil).(contract.ModelReplied)
	fmt.Println(r.Reply.Text())
	// Output: say this
}

func ExampleScript_Requests() {
	s := scripted.Echo()
	s.Expect = func(n int, r contract.ModelRequest) error {
		if r.Model != "m" {
			return fmt.Errorf("call %d asked model %q", n, r.Model)
		}
		return nil
	}
	turn.NewDriver(s, turn.Options{}).Run(context.Background(), req("one"), nil)
	for _, r := range s.Requests() {
		fmt.Println(r.Model, r.History.Len())
	}
	// Output: m 1
}

func ExampleReply_Chunks() {
	for _, c := range (scripted.Reply{Text: "Hi there.", Calls: []scripted.Call{{Name: "f", Arguments: "{}"}}}).Chunks() {
		fmt.Printf("%s %q %q\n", c.Kind, c.Text, c.CallID)
	}
	// Output:
	// text "Hi " ""
	// text "there." ""
	// tool_call_start "" "call_1"
	// tool_call_args "{}" ""
	// tool_call_end "" ""
	// stop "" ""
}
