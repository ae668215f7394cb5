package conductor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// appendArg returns a before-tool hook that appends its mark to the
// echo call's text, so the final text shows the order hooks ran in.
func appendArg(mark string) conductor.BeforeToolHook {
	return func(_ context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
		var in echoIn
		if err := json.Unmarshal([]byte(c.Arguments), &in); err != nil {
			return conductor.Verdict{}, err
		}
		in.Text += mark
		b, _ := json.Marshal(in)
		c.Arguments = string(b)
		return conductor.Verdict{}, nil
	}
}

func TestHooksRunInPriorityOrder(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"x"}`}), say("ok")}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	deps.Hooks.BeforeTool("late", 20, appendArg("-late"))
	deps.Hooks.BeforeTool("early", -5, appendArg("-early"))
	deps.Hooks.BeforeTool("middle-1", 10, appendArg("-m1"))
	deps.Hooks.BeforeTool("middle-2", 10, appendArg("-m2"))
	deps.Hooks.AfterTool("wrap-b", 2, func(_ context.Context, _ contract.ToolCall, out *contract.ToolOutcome) error {
		out.Content = "[" + out.Content + "]"
		return nil
	})
	deps.Hooks.AfterTool("wrap-a", 1, func(_ context.Context, _ contract.ToolCall, out *contract.ToolOutcome) error {
		out.Content = "(" + out.Content + ")"
		return nil
	})
	snap, err := newAgent(t, contract.AgentConfig{}, deps).Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := results(snap)[0].Content, "[(x-early-m1-m2-late)]"; got != want {
		t.Errorf("result %q, want %q", got, want)
	}
}

// TestPanickingBeforeHooksFailClosed: a before-tool hook that panics or
// errors blocks the call, and the tool never runs; a before-model hook
// that panics blocks the model call, which faults the run.
func TestPanickingBeforeHooksFailClosed(t *testing.T) {
	for name, hook := range map[string]conductor.BeforeToolHook{
		"panic": func(context.Context, *contract.ToolCall) (conductor.Verdict, error) { panic("policy engine crashed") },
		"error": func(context.Context, *contract.ToolCall) (conductor.Verdict, error) {
			return conductor.Verdict{}, errors.New("policy engine unreachable")
		},
	} {
		t.Run("before_tool/"+name, func(t *testing.T) {
			ran := make(chan string, 1)
			m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "act", `{}`}), say("ok")}}
			deps := testDeps(m, toolBox(t, gateTool(t, "act", ran, nil)))
			deps.Hooks.BeforeTool("allow-all", 0, func(context.Context, *contract.ToolCall) (conductor.Verdict, error) {
				return conductor.Verdict{}, nil
			})
			deps.Hooks.BeforeTool("policy", 1, hook)
			snap, err := newAgent(t, contract.AgentConfig{}, deps).Submit(ctxT(t), conductor.Text("go"))
			if err != nil {
				t.Fatal(err)
			}
			rs := results(snap)
			if len(ran) != 0 || !rs[0].IsError || !strings.Contains(rs[0].Content, `blocked: before_tool hook "policy" failed`) {
				t.Fatalf("ran %d, results %+v", len(ran), rs)
			}
		})
	}
	t.Run("before_model/panic", func(t *testing.T) {
		m := &fakeModel{replies: []replyFunc{say("should not be asked")}}
		deps := testDeps(m, nil)
		deps.Hooks.BeforeModel("redact", 0, func(context.Context, *contract.ModelRequest) (conductor.Verdict, error) {
			panic("redactor crashed")
		})
		snap, err := newAgent(t, contract.AgentConfig{}, deps).Submit(ctxT(t), conductor.Text("go"))
		if re, ok := contract.AsRunError(err); !ok || re.Kind != contract.KindModel || !strings.Contains(re.Message, `before_model hook "redact" failed`) {
			t.Fatalf("run ended with %v, want a model fault naming the hook", err)
		}
		if snap.Phase != contract.PhaseFaulted || len(m.Requests()) != 0 {
			t.Fatalf("phase %s, %d model calls", snap.Phase, len(m.Requests()))
		}
	})
}

// TestAfterHookFailuresAreIsolated: a failing after-tool hook's partial
// rewrite is undone and later hooks still run; failing observers change
// nothing.
func TestAfterHookFailuresAreIsolated(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"x"}`}), say("ok")}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	deps.Hooks.AfterTool("broken", 0, func(_ context.Context, _ contract.ToolCall, out *contract.ToolOutcome) error {
		out.Content = "half-done"
		panic("after hook crashed")
	})
	deps.Hooks.AfterTool("suffix", 1, func(_ context.Context, _ contract.ToolCall, out *contract.ToolOutcome) error {
		out.Content += "!"
		return nil
	})
	deps.Hooks.AfterModel("watch", 0, func(context.Context, contract.Signal) error { panic("observer crashed") })
	snap, err := newAgent(t, contract.AgentConfig{}, deps).Submit(ctxT(t), conductor.Text("go"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("run ended %s with %v", snap.Phase, err)
	}
	if got := results(snap)[0].Content; got != "x!" {
		t.Errorf("result %q, want x!", got)
	}
}

// TestHookRewritesAreRecorded: a rewritten call's arguments and result,
// and the hooks that rewrote the model's request, are in the records, so
// the session replays to the same snapshot without the hooks.
// rewriteCalls registers the hooks of the rewriting tests: "defang" turns
// "rm -rf /" in a call's arguments into "ls", and "tag" puts "ran: " before
// every outcome.
func rewriteCalls(h *conductor.Hooks) {
	h.BeforeTool("defang", 0, func(_ context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
		c.Arguments = strings.ReplaceAll(c.Arguments, "rm -rf /", "ls")
		return conductor.Verdict{}, nil
	})
	h.AfterTool("tag", 0, func(_ context.Context, _ contract.ToolCall, out *contract.ToolOutcome) error {
		out.Content = "ran: " + out.Content
		return nil
	})
}

func TestHookRewritesAreRecorded(t *testing.T) {
	ctx := ctxT(t)
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"rm -rf /"}`}), say("ok")}}
	deps := testDeps(m, toolBox(t, echoTool(t)))
	st := store.NewMemory()
	deps.Env.Store = st
	deps.Hooks.BeforeModel("house-rules", 0, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		req.System += " Never delete files."
		return conductor.Verdict{}, nil
	})
	rewriteCalls(&deps.Hooks)
	a := newAgent(t, contract.AgentConfig{Model: "gpt-4o"}, deps)
	snap, err := a.Submit(ctx, conductor.Text("clean up"))
	if err != nil {
		t.Fatal(err)
	}
	if got := results(snap)[0].Content; got != "ran: ls" {
		t.Fatalf("result %q, want the rewritten call's tagged output", got)
	}
	records, err := st.Records(ctx, snap.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range records {
		switch s := r.Signal.(type) {
		case contract.ModelReplied:
			got = append(got, "model_replied rewritten by "+strings.Join(s.RewrittenBy, ","))
		case contract.ToolSettled:
			got = append(got, "tool_settled "+s.Arguments+" -> "+s.Outcome.Content+" by "+strings.Join(s.RewrittenBy, ","))
		}
	}
	want := []string{
		"model_replied rewritten by house-rules",
		`tool_settled {"text":"ls"} -> ran: ls by defang,tag`,
		"model_replied rewritten by house-rules",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records mismatch (-want +got):\n%s", diff)
	}
	replayed, err := cadence.New(contract.AgentConfig{Model: "gpt-4o"}).Replay(cadence.InitialSnapshot(snap.SessionID), records)
	if err != nil {
		t.Fatal(err)
	}
	live, _ := contract.EncodeSnapshot(snap)
	again, _ := contract.EncodeSnapshot(replayed)
	if !bytes.Equal(live, again) {
		t.Errorf("replay without hooks differs:\nlive   %s\nreplay %s", live, again)
	}
}

// A before-model hook that edits the request's tools and sampling in
// place changes that request only: the tool still needs its approval
// (there is no approver, so the call is denied and never runs), and the
// next request carries the agent's own options.
func TestBeforeModelHookEditsStayInTheRequest(t *testing.T) {
	ran := make(chan string, 1)
	release := make(chan struct{})
	close(release)
	risky := gateTool(t, "risky", ran, release, dispatch.NeedsApproval())
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "risky", `{}`}), say("ok")}}
	deps := testDeps(m, toolBox(t, risky))
	temperature := 0.5
	var seen []float64
	deps.Hooks.BeforeModel("relabel", 0, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		seen = append(seen, *req.Sampling.Temperature)
		for i := range req.Tools {
			req.Tools[i].NeedsApproval = false
		}
		*req.Sampling.Temperature = 2
		return conductor.Verdict{}, nil
	})
	snap, err := newAgent(t, contract.AgentConfig{Sampling: contract.Sampling{Temperature: &temperature}}, deps).Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	rs := results(snap)
	if len(ran) != 0 || len(rs) != 1 || !rs[0].IsError || !strings.Contains(rs[0].Content, "no approver is attached") {
		t.Errorf("the hook's edit reached the rules: ran %d, results %+v", len(ran), rs)
	}
	if diff := cmp.Diff([]float64{0.5, 0.5}, seen); diff != "" || temperature != 0.5 {
		t.Errorf("the hook's edit reached the config: temperature %v, requests saw (-want +got):\n%s", temperature, diff)
	}
}

// Every part of the request a hook changes counts as a rewrite, in place
// or not: its sampling options and its tools as well as its text.
func TestEveryRewriteOfTheRequestIsRecorded(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	deps := testDeps(&fakeModel{replies: []replyFunc{say("ok")}}, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	deps.Hooks.BeforeModel("warmer", 0, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		*req.Sampling.Temperature = 1.5
		return conductor.Verdict{}, nil
	})
	deps.Hooks.BeforeModel("quiet", 1, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		return conductor.Verdict{}, nil
	})
	deps.Hooks.BeforeModel("describe", 2, func(_ context.Context, req *contract.ModelRequest) (conductor.Verdict, error) {
		req.Tools[0].Description = "Says its text back."
		return conductor.Verdict{}, nil
	})
	temperature := 0.5
	snap, err := newAgent(t, contract.AgentConfig{Sampling: contract.Sampling{Temperature: &temperature}}, deps).Submit(ctx, conductor.Text("hi"))
	if err != nil {
		t.Fatal(err)
	}
	records, err := st.Records(ctx, snap.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	reply, ok := records[1].Signal.(contract.ModelReplied)
	if !ok {
		t.Fatalf("second record %#v, want the reply", records[1].Signal)
	}
	if diff := cmp.Diff([]string{"warmer", "describe"}, reply.RewrittenBy); diff != "" {
		t.Errorf("rewritten by (-want +got):\n%s", diff)
	}
}
