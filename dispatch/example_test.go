package dispatch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

type weatherArgs struct {
	City string `json:"city" jsonschema:"the city to report on"`
}

func ExampleFunc() {
	weather, err := dispatch.Func("weather", "Reports the weather.",
		func(ctx context.Context, in weatherArgs) (string, error) {
			return "sunny in " + in.City, nil
		}, dispatch.Idempotent())
	if err != nil {
		panic(err)
	}
	ok, _ := weather.Call(context.Background(), []byte(`{"city":"Lyon"}`))
	bad, _ := weather.Call(context.Background(), []byte(`{"city":7}`))
	fmt.Println(string(weather.Descriptor().InputSchema))
	fmt.Println(ok.Content)
	fmt.Println(bad.IsError, bad.Content)
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"the city to report on"}},"required":["city"],"additionalProperties":false}
	// sunny in Lyon
	// true invalid arguments: field "city": 7 has type "integer", want "string"
}

func ExampleToolBox_With() {
	echo := func(name, reply string) dispatch.Tool {
		return dispatch.MustFunc(name, "", func(context.Context, struct{}) (string, error) { return reply, nil })
	}
	agent, _ := dispatch.NewToolBox(echo("search", "web"), echo("clock", "noon"))
	run, _ := agent.With(echo("search", "intranet"))
	for _, d := range run.Descriptors() {
		t, _ := run.Lookup(d.Name)
		out, _ := t.Call(context.Background(), nil)
		fmt.Println(d.Name, out.Content)
	}
	t, _ := agent.Lookup("search")
	out, _ := t.Call(context.Background(), nil)
	fmt.Println("agent's own search:", out.Content)
	// Output:
	// clock noon
	// search intranet
	// agent's own search: web
}

func ExampleScheduler() {
	s := dispatch.NewScheduler(dispatch.Options{Limit: 4, DefaultTimeout: time.Second})
	upper := dispatch.MustFunc("upper", "Upper-cases text.",
		func(ctx context.Context, in struct {
			Text string `json:"text"`
		}) (string, error) {
			return dispatch.CallID(ctx) + ": " + strings.ToUpper(in.Text), nil
		})
	done := make(chan dispatch.Outcome)
	err := s.Dispatch(context.Background(), dispatch.Job{
		Call:  contract.ToolCall{ID: "call_1", Name: "upper", Arguments: `{"text":"hi"}`},
		Tool:  upper,
		Done:  func(o dispatch.Outcome) { done <- o },
		Start: func(context.Context) error { return nil },
	})
	if err != nil {
		panic(err)
	}
	o := <-done
	fmt.Println(o.CallID, o.Outcome.Content, o.Outcome.IsError)
	fmt.Println(s.Close(context.Background()))
	// Output:
	// call_1 call_1: HI false
	// <nil>
}

func ExampleScheduler_Cancel() {
	s := dispatch.NewScheduler(dispatch.Options{})
	started := make(chan struct{})
	wait := dispatch.MustFunc("wait", "", func(ctx context.Context, _ struct{}) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	})
	done := make(chan dispatch.Outcome)
	_ = s.Dispatch(context.Background(), dispatch.Job{Call: contract.ToolCall{ID: "c1"}, Tool: wait, Done: func(o dispatch.Outcome) { done <- o }})
	<-started
	s.Cancel("c1")
	o := <-done
	fmt.Println(o.Cancelled, o.Outcome.Content)
	fmt.Println(s.Close(context.Background()))
	// Output:
	// true tool "wait" cancelled
	// <nil>
}

func ExampleCallID() {
	ctx := dispatch.WithIDs(context.Background(), dispatch.IDs{CallID: "call_9", SessionID: "s1", RunID: "r1"})
	fmt.Println(dispatch.CallID(ctx), dispatch.SessionID(ctx), dispatch.RunID(ctx))
	// Output: call_9 s1 r1
}

func ExampleNewTool() {
	t, _ := dispatch.NewTool(contract.ToolDescriptor{Name: "raw", Sequential: true},
		func(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error) {
			return contract.ToolOutcome{Content: "got " + string(args)}, nil
		})
	out, _ := t.Call(context.Background(), []byte(`{"x":1}`))
	fmt.Println(out.Content, t.Descriptor().Sequential)
	// Output: got {"x":1} true
}

func ExampleNewToolBox() {
	read := dispatch.MustFunc("read", "Reads a file.", func(context.Context, struct {
		Path string `json:"path"`
	}) (string, error) {
		return "", nil
	})
	box, err := dispatch.NewToolBox(read)
	fmt.Println(err)
	fmt.Println(box.Register(read))
	fmt.Println(box.Register(dispatch.MustFunc("write", "", func(context.Context, struct{}) (string, error) { return "", nil })))
	for _, d := range box.Descriptors() {
		fmt.Println(d.Name)
	}
	// Output:
	// <nil>
	// dispatch: duplicate tool "read"
	// <nil>
	// read
	// write
}

func ExampleScheduler_Close() {
	s := dispatch.NewScheduler(dispatch.Options{Grace: time.Millisecond})
	started, stuck := make(chan struct{}), make(chan struct{})
	deaf := dispatch.MustFunc("deaf", "Ignores its context.", func(context.Context, struct{}) (string, error) {
		close(started)
		<-stuck
		return "", nil
	})
	// The call is cancelled once the tool runs, which it ignores.
	call, cancelCall := context.WithCancel(context.Background())
	done := make(chan dispatch.Outcome)
	_ = s.Dispatch(call, dispatch.Job{Call: contract.ToolCall{ID: "c1"}, Tool: deaf, Done: func(o dispatch.Outcome) { done <- o }})
	<-started
	cancelCall()
	o := <-done
	fmt.Println(o.Outcome.Content, s.Stragglers())

	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	fmt.Println(s.Close(ctx))
	close(stuck)
	fmt.Println(s.Close(context.Background()), s.Stragglers())
	// Output:
	// tool "deaf" cancelled: context canceled 1
	// dispatch: tools ignored cancellation: deaf (call c1): context deadline exceeded
	// <nil> 0
}
