package wire

import (
	"context"
	"slices"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/aisdk"
	"github.com/google/go-cmp/cmp"
)

// delegatingScript is played by the parent and its one child in turn:
// the parent delegates, the child calls the weather tool and answers, the
// parent answers with the child's answer.
func delegatingScript() []func(context.Context) ([]turn.Chunk, error) {
	call := func(id, name, args string, stop contract.StopReason) func(context.Context) ([]turn.Chunk, error) {
		return reply(
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: id, Name: name},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: args},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
			turn.Chunk{Kind: turn.ChunkStop, Stop: stop})
	}
	say := func(text string) func(context.Context) ([]turn.Chunk, error) {
		return reply(turn.Chunk{Kind: turn.ChunkText, Text: text}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})
	}
	return []func(context.Context) ([]turn.Chunk, error){
		call("call_d", "delegate_helper", `{"task":"weather in Paris"}`, contract.StopToolUse),
		call("call_1", "get_weather", `{"city":"Paris"}`, contract.StopToolUse),
		say("18C, cloudy."),
		say("Paris: 18C, cloudy."),
	}
}

func newDelegatingEnv(t *testing.T) *env {
	return startEnv(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: delegatingScript, cfg: delegatingConfig()})
}

// delegatingConfig is the parent's of delegatingScript: one delegate,
// with the weather tool.
func delegatingConfig() contract.AgentConfig {
	return contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{
		{Name: "helper", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "get_weather"}}}},
	}}
}

// TestAGUIClientShowsADelegatedRun: the official AG-UI client takes a run
// whose delegate call ran a child: the child's work arrives as a step and
// CUSTOM events, so the client's messages are the parent's history alone.
func TestAGUIClientShowsADelegatedRun(t *testing.T) {
	dir := aguiClientDir(t)
	e := newDelegatingEnv(t)
	res := runClient(t, dir, e.srv.URL, "thread-d", "full")
	want := historyLines(e.agent("thread-d").Snapshot().History)
	if diff := cmp.Diff(want, flatten(t, res.Messages)); diff != "" {
		t.Errorf("client messages mismatch (-want +got):\n%s", diff)
	}
	if !slices.Contains(want, "tool call_d: 18C, cloudy.") {
		t.Errorf("the delegate call's result is not the child's answer: %v", want)
	}
}

// TestAISDKClientShowsADelegatedRun: the AI SDK client rebuilds the
// parent's message, with the child's progress as a data part.
func TestAISDKClientShowsADelegatedRun(t *testing.T) {
	dir := aiSDKDir(t)
	e := newDelegatingEnv(t)
	res := uiClient(t, dir, e.srv.URL+"/api/chat?protocol=ai-sdk", "chat-d", "chat")
	want := historyLines(e.agent("chat-d").Snapshot().History)
	if diff := cmp.Diff(want, uiLines(t, "weather in Paris?", res)); diff != "" {
		t.Errorf("client message mismatch (-want +got):\n%s", diff)
	}
	for _, typ := range []string{aisdk.DataSubflow, aisdk.DataSubflowEvent} {
		if !slices.Contains(res.Types, typ) {
			t.Errorf("no %s chunk in %v", typ, res.Types)
		}
	}
}
