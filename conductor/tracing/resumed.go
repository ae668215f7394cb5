package tracing

import (
	"context"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/batonrt/baton/contract"
)

// inRun reports whether ev is published by a run in flight before it
// ends: an event the tracer may see first for a run picked up again by
// Resume or Reopen, which publishes no run_started. Events that end a
// run, a model call or a tool call are left out: they also come late
// from a delegate's child whose span its parent already ended, and must
// not open it again. No event of a child follows its parent's end on one
// agent's stream: a parent stops its child (its loop and model call's
// deltas) before it answers the delegate call, and a run ends, or is let
// go, only after its children.
func inRun(ev contract.RunEvent) bool {
	if ev.RunID == "" {
		return false
	}
	switch ev.Kind {
	case contract.EvTurnStarted, contract.EvModelRetry,
		contract.EvToolCall, contract.EvToolStarted,
		contract.EvApprovalRequested, contract.EvApprovalResolved,
		contract.EvQuestionAsked, contract.EvQuestionAnswered,
		contract.EvSteeringApplied, contract.EvFollowUpApplied,
		contract.EvLoopWarning, contract.EvCompaction, contract.EvSubflowStarted:
		return true
	}
	return false
}

// runResumed opens the span of a run first seen in flight: one this
// process picked up again after another let it go. A resumed delegate's
// child publishes before its parent, so the parent's span is opened
// first, its run id set by its own first event; the child's span is under
// it and ended by it. The parent's session is read off the child's: a
// name cut to fit names no session, so the parent's span is only guessed
// at until adopt finds its own events. via is the session of the run
// whose events came, when ev is made up for its parent.
func (t *Tracer) runResumed(key string, ev contract.RunEvent, cfg *contract.AgentConfig, owner *attachment, at time.Time, via string) *runSpans {
	if via == "" {
		via = ev.SessionID
	}
	ctx, name, model := context.Background(), "invoke_agent "+t.opts.AgentName, t.rootModel(cfg)
	var parent *runSpans
	var call string
	if n := len(ev.Subflow); n > 0 {
		// A child's session is its parent's followed by "/" and the step
		// that started it (see cadence), but for a parent id too long to
		// extend, which it cuts.
		cut := strings.LastIndexByte(ev.SessionID, '/')
		if cut < 0 {
			return nil
		}
		up := contract.RunEvent{SessionID: ev.SessionID[:cut], Subflow: ev.Subflow[:n-1]}
		upKey := runKey(up.SessionID, up.Subflow)
		if parent = t.runs[upKey]; parent == nil {
			if parent = t.runResumed(upKey, up, cfg, owner, at, via); parent == nil {
				return nil
			}
			parent.guessedFrom = via
		}
		call = ev.Subflow[n-1]
		ctx = parent.ctx
		if span, ok := parent.tools[call]; ok {
			ctx = trace.ContextWithSpan(ctx, span)
		}
		// The delegate's name, and so its model, is in its call, made
		// before the run was let go; subflowEnded names the span once the
		// call is seen.
		name, model, cfg = "invoke_agent delegate", "", nil
	}
	agent := t.opts.AgentName
	if parent != nil {
		agent = ""
	}
	attrs := append(t.agentAttrs(agent, ev.SessionID, ev.RunID, model), attribute.Bool("baton.run.resumed", true))
	if parent != nil {
		attrs = append(attrs, semconv.GenAIToolCallID(call))
	}
	ctx, span := t.tracer.Start(ctx, name, trace.WithTimestamp(at), trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	r := &runSpans{ctx: ctx, span: span, last: at, runID: ev.RunID, session: ev.SessionID, path: slices.Clone(ev.Subflow), model: model, cfg: cfg, owner: owner, tools: map[string]trace.Span{}, delegal: parent != nil}
	t.runs[key] = r
	if parent != nil {
		if parent.children == nil {
			parent.children = map[string]string{}
		}
		parent.children[call] = key
	}
	return r
}

// adopt finds the span runResumed opened for the run of session at path
// under a session guessed from a child's cut name, and files it under
// key, the run's own: its events, and its parent's, end it there. Nil if
// there is none.
func (t *Tracer) adopt(key, session string, path []string) *runSpans {
	for guess, r := range t.runs {
		if r.guessedFrom == "" || !slices.Equal(r.path, path) || !contract.IsDelegatedSession(session, r.guessedFrom) {
			continue
		}
		delete(t.runs, guess)
		t.runs[key] = r
		r.guessedFrom, r.session = "", session
		r.span.SetAttributes(semconv.GenAIConversationID(session))
		for _, p := range t.runs {
			for call, k := range p.children {
				if k == guess {
					p.children[call] = key
				}
			}
		}
		return r
	}
	return nil
}
