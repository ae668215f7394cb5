package tracing_test

import (
	"context"
	"iter"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/goleak"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// summarizing answers summary requests itself and the rest from a script.
type summarizing struct{ *scripted.Script }

func (s summarizing) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	if req.System == turn.SummarySystem {
		return scripted.New(scripted.Reply{Text: "SUMMARY: echoes were made"}).Stream(ctx, req)
	}
	return s.Script.Stream(ctx, req)
}

var echo = dispatch.MustFunc("echo", "Echoes its text.", func(_ context.Context, in struct {
	Text string `json:"text"`
}) (string, error) {
	if in.Text == "fail" {
		return "", context.DeadlineExceeded
	}
	return in.Text, nil
})

// run drives one prompt through an agent traced into an in-memory
// exporter and returns the spans, once the run's span has ended.
func run(t *testing.T, cfg contract.AgentConfig, model turn.Provider, opts tracing.Options) tracetest.SpanStubs {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	box, _ := dispatch.NewToolBox(echo)
	agent, err := conductor.CreateAgent(cfg, conductor.Deps{
		Model: conductor.Model{Provider: model},
		Tools: conductor.Tools{Box: box},
		Env:   conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}, Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Step: time.Second}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	detach := tracing.New(tp, opts).Attach(agent)
	defer detach()
	agent.Submit(context.Background(), conductor.Text("hello"))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, s := range exp.GetSpans() {
			if !s.Parent.IsValid() {
				return exp.GetSpans()
			}
		}
	}
	t.Fatal("the run's span never ended")
	return nil
}

// tree prints each span as "parent > name", sorted, so nesting is
// compared whole.
func tree(spans tracetest.SpanStubs) []string {
	names := map[string]string{}
	for _, s := range spans {
		names[s.SpanContext.SpanID().String()] = s.Name
	}
	var out []string
	for _, s := range spans {
		parent := names[s.Parent.SpanID().String()]
		if !s.Parent.IsValid() {
			parent = "-"
		}
		out = append(out, parent+" > "+s.Name)
	}
	slices.Sort(out)
	return out
}

func find(t *testing.T, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	for _, s := range spans {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no span %q in %v", name, tree(spans))
	return tracetest.SpanStub{}
}

func attrs(s tracetest.SpanStub) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

func TestRunSpans(t *testing.T) {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "echo", Arguments: `{"text":"secret"}`}, {ID: "c2", Name: "echo", Arguments: `{"text":"fail"}`}}, Usage: contract.Usage{InputTokens: 10, OutputTokens: 5, CachedTokens: 2}},
		scripted.Reply{Text: "done", Usage: contract.Usage{InputTokens: 20, OutputTokens: 3}},
	)
	spans := run(t, contract.AgentConfig{Model: "gpt-4o"}, model, tracing.Options{Provider: "openai", Model: "gpt-4o"})
	want := []string{
		"- > invoke_agent baton",
		"invoke_agent baton > chat gpt-4o",
		"invoke_agent baton > chat gpt-4o",
		"invoke_agent baton > execute_tool echo",
		"invoke_agent baton > execute_tool echo",
	}
	if diff := cmp.Diff(want, tree(spans)); diff != "" {
		t.Fatalf("span tree mismatch (-want +got):\n%s", diff)
	}
	root := find(t, spans, "invoke_agent baton")
	if diff := cmp.Diff(map[string]string{
		"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "baton", "gen_ai.conversation.id": "s1",
		"gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o", "baton.run.id": "run_1",
		"gen_ai.usage.input_tokens": "30", "gen_ai.usage.output_tokens": "8", "gen_ai.usage.cache_read.input_tokens": "2",
	}, attrs(root)); diff != "" {
		t.Errorf("run attributes mismatch (-want +got):\n%s", diff)
	}
	var chats, tools []tracetest.SpanStub
	for _, s := range spans {
		switch {
		case strings.HasPrefix(s.Name, "chat"):
			chats = append(chats, s)
		case strings.HasPrefix(s.Name, "execute_tool"):
			tools = append(tools, s)
		}
	}
	slices.SortFunc(chats, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	first := attrs(chats[0])
	if first["gen_ai.usage.input_tokens"] != "10" || first["gen_ai.usage.output_tokens"] != "5" || first["gen_ai.usage.cache_read.input_tokens"] != "2" || first["gen_ai.response.finish_reasons"] != `["tool_call"]` {
		t.Errorf("first chat attributes %v", first)
	}
	if a := attrs(chats[1]); a["gen_ai.response.finish_reasons"] != `["stop"]` || a["gen_ai.usage.input_tokens"] != "20" {
		t.Errorf("second chat attributes %v", a)
	}
	if !chats[0].EndTime.After(chats[0].StartTime) || chats[1].StartTime.Before(chats[0].EndTime) {
		t.Errorf("chat times out of order: %v-%v, %v-%v", chats[0].StartTime, chats[0].EndTime, chats[1].StartTime, chats[1].EndTime)
	}
	byID := map[string]tracetest.SpanStub{}
	for _, s := range tools {
		byID[attrs(s)["gen_ai.tool.call.id"]] = s
		if _, leaked := attrs(s)["gen_ai.tool.call.arguments"]; leaked {
			t.Errorf("arguments recorded without opting in: %v", attrs(s))
		}
	}
	if byID["c1"].Status.Code != codes.Unset || byID["c2"].Status.Code != codes.Error || attrs(byID["c2"])["error.type"] != "tool_error" {
		t.Errorf("tool statuses %v %v", byID["c1"].Status, byID["c2"].Status)
	}
	if attrs(byID["c1"])["gen_ai.tool.name"] != "echo" {
		t.Errorf("tool attributes %v", attrs(byID["c1"]))
	}
}

func TestContentOptIn(t *testing.T) {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "echo", Arguments: `{"text":"secret"}`}}},
		scripted.Reply{Text: "done"},
	)
	spans := run(t, contract.AgentConfig{Model: "m"}, model, tracing.Options{Content: true})
	root := attrs(find(t, spans, "invoke_agent baton"))
	if root["gen_ai.input.messages"] != `[{"role":"user","parts":[{"type":"text","content":"hello"}]}]` {
		t.Errorf("input messages %q", root["gen_ai.input.messages"])
	}
	tool := attrs(find(t, spans, "execute_tool echo"))
	if tool["gen_ai.tool.call.arguments"] != `{"text":"secret"}` || tool["gen_ai.tool.call.result"] != "secret" {
		t.Errorf("tool content %v", tool)
	}
	var outputs []string
	for _, s := range spans {
		if s.Name == "chat m" {
			outputs = append(outputs, attrs(s)["gen_ai.output.messages"])
		}
	}
	slices.Sort(outputs)
	want := []string{
		`[{"role":"assistant","parts":[{"type":"text","content":"done"}],"finish_reason":"stop"}]`,
		`[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"echo","arguments":{"text":"secret"}}],"finish_reason":"tool_call"}]`,
	}
	if diff := cmp.Diff(want, outputs); diff != "" {
		t.Errorf("output messages mismatch (-want +got):\n%s", diff)
	}
}

func TestFaultedRun(t *testing.T) {
	model := scripted.New(scripted.Reply{Fail: &scripted.Failure{Status: 401, Message: "bad key"}})
	spans := run(t, contract.AgentConfig{Model: "m"}, model, tracing.Options{})
	root := find(t, spans, "invoke_agent baton")
	if root.Status.Code != codes.Error || attrs(root)["error.type"] != "model" || len(root.Events) == 0 || root.Events[0].Name != "exception" {
		t.Errorf("run span status %v, attributes %v, events %v", root.Status, attrs(root), root.Events)
	}
	chat := find(t, spans, "chat m")
	if chat.Status.Code != codes.Error || attrs(chat)["error.type"] != "model" {
		t.Errorf("chat span status %v, attributes %v", chat.Status, attrs(chat))
	}
}

func TestDelegationAndCompaction(t *testing.T) {
	model := summarizing{scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "echo", Arguments: `{"text":"` + strings.Repeat("word ", 50) + `"}`}}},
		scripted.Reply{Calls: []scripted.Call{{ID: "c2", Name: "echo", Arguments: `{"text":"` + strings.Repeat("more ", 50) + `"}`}}},
		scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}},
		scripted.Reply{Text: "helped"},
		scripted.Reply{Text: "done"},
	)}
	cfg := contract.AgentConfig{
		Model:      "m",
		Compaction: contract.CompactionPolicy{MaxMessages: 4, KeepRecent: 2},
		Delegates:  []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m"}}},
	}
	spans := run(t, cfg, model, tracing.Options{})
	got := tree(spans)
	for _, want := range []string{
		"invoke_agent baton > execute_tool delegate_helper",
		"execute_tool delegate_helper > invoke_agent helper",
		"invoke_agent helper > chat m",
		"invoke_agent baton > compaction",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("span tree lacks %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
	child := find(t, spans, "invoke_agent helper")
	if attrs(child)["gen_ai.tool.call.id"] != "d1" {
		t.Errorf("delegation attributes %v", attrs(child))
	}
}

// A delegate call answered without its child's result (here by an abort
// of the parent) ends the child's span with the rest, rather than leaving
// it open, never exported.
func TestAbortedDelegationEndsTheChildSpan(t *testing.T) {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}},
		scripted.Reply{Fail: &scripted.Failure{Hang: true}},
	)
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m"}}}}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	agent, err := conductor.CreateAgent(cfg, conductor.Deps{
		Model: conductor.Model{Provider: model},
		Env:   conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	defer tracing.New(tp, tracing.Options{}).Attach(agent)()
	childAsking := make(chan struct{})
	defer agent.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvTurnStarted && len(ev.Subflow) > 0 {
			close(childAsking)
		}
	})()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := agent.Submit(ctx, conductor.Text("hello"))
		done <- err
	}()
	select {
	case <-childAsking:
	case <-ctx.Done():
		t.Fatal("the child never called its model")
	}
	if err := agent.Abort(t.Context(), contract.AbortNow); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err == nil {
		t.Fatal("the aborted run did not fault")
	}
	if err := agent.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"- > invoke_agent baton",
		"execute_tool delegate_helper > invoke_agent helper",
		"invoke_agent baton > chat m",
		"invoke_agent baton > execute_tool delegate_helper",
		"invoke_agent helper > chat m",
	}
	if diff := cmp.Diff(want, tree(exp.GetSpans())); diff != "" {
		t.Fatalf("ended spans mismatch (-want +got):\n%s", diff)
	}
	child := find(t, exp.GetSpans(), "invoke_agent helper")
	if child.Status.Code != codes.Error {
		t.Errorf("child span status %v, want an error", child.Status)
	}
}
