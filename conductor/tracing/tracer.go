package tracing

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
)

// ScopeName is the instrumentation scope of baton's spans.
const ScopeName = "github.com/batonrt/baton/conductor/tracing"

// Options describe what the spans say about the agent.
type Options struct {
	// AgentName is gen_ai.agent.name; default "baton".
	AgentName string
	// Provider is gen_ai.provider.name, such as "openai" or "anthropic".
	Provider string
	// Model is gen_ai.request.model of the runs the agent starts; default
	// the attached agent's AgentConfig.Model. A delegate's runs name the
	// model of their own config.
	Model string
	// Content records message content: the run's input, each reply, tool
	// arguments and results, a failed call's output among them. It may
	// hold personal or secret data, so it is off by default.
	Content bool
}

// Tracer makes spans of the events of one or more agents. It is safe for
// concurrent use.
type Tracer struct {
	tracer trace.Tracer
	opts   Options

	mu   sync.Mutex
	runs map[string]*runSpans // by session and subflow path
}

// runSpans holds the open spans of one run.
type runSpans struct {
	ctx     context.Context // carries the run's span
	span    trace.Span
	chat    trace.Span
	tools   map[string]trace.Span // by call id
	last    time.Time             // the newest event's time
	delegal bool                  // opened by the parent's subflow_started
	// faulted says the run's own run_faulted set its span's error, which
	// its parent's subflow_failed keeps.
	faulted bool
	// owner is the attachment whose events opened the run; nil for
	// events given to Observe.
	owner *attachment
	runID string // set by the first event of the run
	// session is the run's own session, gen_ai.conversation.id.
	session string
	// path is the run's subflow path, set for a run opened resumed.
	path []string
	// guessedFrom is the session of the descendant whose resumed events
	// opened this span, until the run's own events confirm the session
	// read off the descendant's name, or adopt finds the right one.
	guessedFrom string
	model       string // gen_ai.request.model; empty if unknown
	// cfg is the run's config, where its delegates' models are found;
	// nil when the tracer was not attached to the agent.
	cfg *contract.AgentConfig
	// children are the keys of the child runs of delegate calls, by call
	// id, until the call is answered.
	children map[string]string
}

// New returns a Tracer making spans with tp; nil uses a no-op provider.
func New(tp trace.TracerProvider, opts Options) *Tracer {
	if tp == nil {
		tp = noop.NewTracerProvider()
	}
	if opts.AgentName == "" {
		opts.AgentName = "baton"
	}
	return &Tracer{tracer: tp.Tracer(ScopeName), opts: opts, runs: map[string]*runSpans{}}
}

// attachment is one agent Attach follows; detached is set under the
// Tracer's lock.
type attachment struct {
	cfg      contract.AgentConfig
	detached bool
}

// Attach makes spans of agent's events until the returned function is
// called. Detaching ends the spans of the agent's runs still in flight,
// marked baton.tracing.detached, at their newest event: no event would
// end them after it.
func (t *Tracer) Attach(agent *conductor.Agent) (detach func()) {
	a := &attachment{cfg: agent.Config()}
	unsubscribe := agent.Subscribe(func(ev contract.RunEvent) { t.observe(ev, &a.cfg, a) })
	return sync.OnceFunc(func() {
		unsubscribe()
		t.detach(a)
	})
}

// Observe makes spans of one event. Events must come in order, as a
// subscriber receives them.
func (t *Tracer) Observe(ev contract.RunEvent) {
	t.observe(ev, nil, nil)
}

// observe makes spans of one event of an agent whose config is cfg, or
// unknown if nil, which arrived through owner, or Observe if nil.
func (t *Tracer) observe(ev contract.RunEvent, cfg *contract.AgentConfig, owner *attachment) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if owner != nil && owner.detached {
		// Delivered as detach was called: the run's spans are ended.
		return
	}
	at := time.Unix(0, int64(ev.At))
	key := runKey(ev.SessionID, ev.Subflow)
	if t.runs[key] == nil {
		if t.adopt(key, ev.SessionID, ev.Subflow) == nil && inRun(ev) {
			t.runResumed(key, ev, cfg, owner, at, "")
		}
	}
	switch ev.Kind {
	case contract.EvRunStarted:
		t.runStarted(key, ev, cfg, owner, at)
	case contract.EvSubflowStarted:
		t.subflowStarted(key, ev, at)
	case contract.EvSubflowCompleted, contract.EvSubflowFailed:
		t.subflowEnded(ev, at)
	}
	r := t.runs[key]
	if r == nil {
		return
	}
	r.guessedFrom = ""
	if r.runID == "" && ev.RunID != "" {
		r.runID = ev.RunID
		r.span.SetAttributes(attribute.String("baton.run.id", ev.RunID))
	}
	prev := r.last
	r.last = at
	switch ev.Kind {
	case contract.EvTurnStarted:
		t.chatStarted(r, ev, at)
	case contract.EvModelRetry:
		if r.chat != nil {
			r.chat.AddEvent("model_retry", trace.WithTimestamp(at), trace.WithAttributes(attribute.String("baton.retry.reason", redact.Error(ev.Text))))
		}
	case contract.EvTurnCompleted:
		t.chatCompleted(r, ev, at)
	case contract.EvToolCall:
		t.toolCalled(r, ev, at)
	case contract.EvToolStarted:
		// A call made before the run was let go and resumed here has no
		// span yet.
		if ev.Call != nil && r.tools[ev.Call.ID] == nil {
			t.toolCalled(r, ev, at)
		}
	case contract.EvToolResult:
		t.toolSettled(r, ev, at)
	case contract.EvCompaction:
		t.compacted(r, prev, ev, at)
	case contract.EvRunSettled, contract.EvRunFaulted:
		t.runEnded(key, r, ev, at)
	case contract.EvRunDetached:
		t.runDetached(key, r, ev, at)
	}
}

func runKey(session string, subflow []string) string {
	return session + "/" + strings.Join(subflow, "/")
}

// childKey is the key of the child run a subflow event is about: the
// child's events carry its own session, which the event's Text names, and
// the path down to it.
func childKey(ev contract.RunEvent) string {
	return runKey(ev.Text, append(append([]string(nil), ev.Subflow...), ev.Call.ID))
}

// delegateName is the name of the delegate a delegate call calls.
func delegateName(call string) string {
	return strings.TrimPrefix(call, contract.DelegatePrefix)
}

// rootModel is the model of the runs an agent with cfg starts.
func (t *Tracer) rootModel(cfg *contract.AgentConfig) string {
	if t.opts.Model == "" && cfg != nil {
		return cfg.Model
	}
	return t.opts.Model
}

// delegate returns the config and model of the child run of a delegate
// call named call in the run r: its own, when r's config is known.
func delegate(r *runSpans, call string) (*contract.AgentConfig, string) {
	if r.cfg != nil {
		if d, ok := r.cfg.DelegateNamed(delegateName(call)); ok {
			child := r.cfg.ChildConfig(d)
			if child.Model == "" {
				child.Model = r.model
			}
			return &child, child.Model
		}
	}
	return nil, r.model
}

// agentAttrs describe a run of the agent named name (left out when
// unknown) in session, its run id set when known.
func (t *Tracer) agentAttrs(name, session, runID, model string) []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameInvokeAgent, semconv.GenAIConversationID(session)}
	if name != "" {
		attrs = append(attrs, semconv.GenAIAgentName(name))
	}
	if runID != "" {
		attrs = append(attrs, attribute.String("baton.run.id", runID))
	}
	if t.opts.Provider != "" {
		attrs = append(attrs, semconv.GenAIProviderNameKey.String(t.opts.Provider))
	}
	if model != "" {
		attrs = append(attrs, semconv.GenAIRequestModel(model))
	}
	return attrs
}

func (t *Tracer) runStarted(key string, ev contract.RunEvent, cfg *contract.AgentConfig, owner *attachment, at time.Time) {
	r := t.runs[key]
	if r == nil {
		model := t.rootModel(cfg)
		ctx, span := t.tracer.Start(context.Background(), "invoke_agent "+t.opts.AgentName,
			trace.WithTimestamp(at), trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(t.agentAttrs(t.opts.AgentName, ev.SessionID, ev.RunID, model)...))
		r = &runSpans{ctx: ctx, span: span, last: at, session: ev.SessionID, model: model, cfg: cfg, owner: owner, tools: map[string]trace.Span{}}
		t.runs[key] = r
	} else {
		r.span.SetAttributes(attribute.String("baton.run.id", ev.RunID))
	}
	r.runID = ev.RunID
	if t.opts.Content && ev.Text != "" {
		r.span.SetAttributes(semconv.GenAIInputMessagesKey.String(messagesJSON("user", ev.Text)))
	}
}

func (t *Tracer) chatStarted(r *runSpans, ev contract.RunEvent, at time.Time) {
	endSpan(r.chat, at)
	name := "chat"
	if r.model != "" {
		name += " " + r.model
	}
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameChat, semconv.GenAIConversationID(r.session), attribute.Int("baton.round", ev.Round)}
	if t.opts.Provider != "" {
		attrs = append(attrs, semconv.GenAIProviderNameKey.String(t.opts.Provider))
	}
	if r.model != "" {
		attrs = append(attrs, semconv.GenAIRequestModel(r.model))
	}
	if r.cfg != nil {
		attrs = append(attrs, requestAttrs(r.cfg.WithDefaults())...)
	}
	_, r.chat = t.tracer.Start(r.ctx, name, trace.WithTimestamp(at), trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

func (t *Tracer) chatCompleted(r *runSpans, ev contract.RunEvent, at time.Time) {
	if r.chat == nil {
		return
	}
	setUsage(r.chat, ev.Usage)
	if ev.ResponseModel != "" {
		r.chat.SetAttributes(semconv.GenAIResponseModel(ev.ResponseModel))
	}
	if ev.ResponseID != "" {
		r.chat.SetAttributes(semconv.GenAIResponseID(ev.ResponseID))
	}
	if ev.Turn != nil {
		reason := finishReason(ev.Stop, *ev.Turn)
		r.chat.SetAttributes(semconv.GenAIResponseFinishReasons(reason))
		if t.opts.Content {
			r.chat.SetAttributes(semconv.GenAIOutputMessagesKey.String(turnJSON(*ev.Turn, reason)))
		}
	}
	r.chat.End(trace.WithTimestamp(at))
	r.chat = nil
}

// setUsage sets the token counts of u on span. A reply without token
// counts is of unknown cost, not free: the counts are left out rather
// than set to zero.
func setUsage(span trace.Span, u *contract.Usage) {
	if u == nil || (u.InputTokens == 0 && u.OutputTokens == 0) {
		return
	}
	span.SetAttributes(semconv.GenAIUsageInputTokens(int(u.InputTokens)), semconv.GenAIUsageOutputTokens(int(u.OutputTokens)))
	if u.CachedTokens > 0 {
		span.SetAttributes(semconv.GenAIUsageCacheReadInputTokens(int(u.CachedTokens)))
	}
	if u.ReasoningTokens > 0 {
		span.SetAttributes(semconv.GenAIUsageReasoningOutputTokens(int(u.ReasoningTokens)))
	}
}

// finishReason names why the model ended its reply as the conventions
// do. An event without the stop, from a run log written before events
// carried it, is told by its calls; a stop the conventions have no word
// for is passed on as it is.
func finishReason(stop contract.StopReason, t contract.Turn) string {
	switch stop {
	case contract.StopEndTurn:
		return "stop"
	case contract.StopToolUse:
		return "tool_call"
	case contract.StopMaxTokens:
		return "length"
	case contract.StopRefusal:
		return "content_filter"
	case "":
		if len(t.Calls()) > 0 {
			return "tool_call"
		}
		return "stop"
	}
	return string(stop)
}

func (t *Tracer) toolCalled(r *runSpans, ev contract.RunEvent, at time.Time) {
	if ev.Call == nil {
		return
	}
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameExecuteTool,
		semconv.GenAIToolName(ev.Call.Name),
		semconv.GenAIToolCallID(ev.Call.ID),
		semconv.GenAIToolType("function"),
	}
	if t.opts.Content {
		attrs = append(attrs, semconv.GenAIToolCallArgumentsKey.String(ev.Call.Arguments))
	}
	_, span := t.tracer.Start(r.ctx, "execute_tool "+ev.Call.Name, trace.WithTimestamp(at), trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	r.tools[ev.Call.ID] = span
}

func (t *Tracer) toolSettled(r *runSpans, ev contract.RunEvent, at time.Time) {
	if ev.Result == nil {
		return
	}
	t.childAnswered(r, ev, at)
	span, ok := r.tools[ev.Result.CallID]
	if !ok {
		return
	}
	delete(r.tools, ev.Result.CallID)
	if t.opts.Content {
		span.SetAttributes(semconv.GenAIToolCallResultKey.String(ev.Result.Content))
	}
	if ev.Result.IsError {
		span.SetAttributes(semconv.ErrorTypeKey.String("tool_error"))
		// A failed call's result is what the tool said (a shell line's
		// output before its exit status): content, told only with Content.
		desc := ""
		if t.opts.Content {
			desc = errorText(ev.Result.Content)
		}
		span.SetStatus(codes.Error, desc)
	}
	span.End(trace.WithTimestamp(at))
}

// subflowStarted opens the child run's invoke_agent span under the
// delegate call's execute_tool span.
func (t *Tracer) subflowStarted(parentKey string, ev contract.RunEvent, at time.Time) {
	p := t.runs[parentKey]
	if p == nil || ev.Call == nil {
		return
	}
	ctx := p.ctx
	if span, ok := p.tools[ev.Call.ID]; ok {
		ctx = trace.ContextWithSpan(ctx, span)
	}
	cfg, model := delegate(p, ev.Call.Name)
	// The child is the delegate's run, in the child's own session; its
	// run id comes with its run_started.
	name := delegateName(ev.Call.Name)
	attrs := append(t.agentAttrs(name, ev.Text, "", model), semconv.GenAIToolCallID(ev.Call.ID), attribute.String("baton.delegate", ev.Call.Name))
	ctx, span := t.tracer.Start(ctx, "invoke_agent "+name, trace.WithTimestamp(at), trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	key := childKey(ev)
	t.runs[key] = &runSpans{ctx: ctx, span: span, last: at, session: ev.Text, model: model, cfg: cfg, owner: p.owner, tools: map[string]trace.Span{}, delegal: true}
	if p.children == nil {
		p.children = map[string]string{}
	}
	p.children[ev.Call.ID] = key
}

// childAnswered ends the child run of a delegate call answered without
// its result (an abort, a skip): no subflow event will end it, and
// nothing more of the child comes. A child that ended is gone already;
// one that faulted (aborted with its parent) said why itself, which the
// parent's answer does not take over, as subflowEnded keeps it too.
func (t *Tracer) childAnswered(r *runSpans, ev contract.RunEvent, at time.Time) {
	key, ok := r.children[ev.Result.CallID]
	if !ok {
		return
	}
	delete(r.children, ev.Result.CallID)
	if c := t.runs[key]; c != nil {
		if !c.faulted {
			c.span.SetAttributes(semconv.ErrorTypeKey.String("delegation_failed"))
			c.span.SetStatus(codes.Error, errorText(ev.Result.Content))
		}
		t.closeRun(key, c, at)
	}
}

func (t *Tracer) subflowEnded(ev contract.RunEvent, at time.Time) {
	if ev.Call == nil {
		return
	}
	key := childKey(ev)
	r := t.runs[key]
	if r == nil {
		r = t.adopt(key, ev.Text, append(slices.Clone(ev.Subflow), ev.Call.ID))
	}
	if r == nil {
		return
	}
	// A child resumed here learns its delegate's name only now.
	name := delegateName(ev.Call.Name)
	r.span.SetName("invoke_agent " + name)
	r.span.SetAttributes(semconv.GenAIAgentName(name), attribute.String("baton.delegate", ev.Call.Name))
	// subflow_failed carries the child's session in Text, not why it
	// failed: a child that faulted said why itself, and one that did not
	// (it never ran) is only known to have failed.
	if ev.Kind == contract.EvSubflowFailed && !r.faulted {
		r.span.SetAttributes(semconv.ErrorTypeKey.String("delegation_failed"))
		r.span.SetStatus(codes.Error, "delegate run failed")
	}
	t.closeRun(key, r, at)
}

func (t *Tracer) runEnded(key string, r *runSpans, ev contract.RunEvent, at time.Time) {
	// The run's usage counts its delegates' runs too, as its cost does.
	setUsage(r.span, ev.Usage)
	if ev.Kind == contract.EvRunFaulted && ev.Err != nil {
		r.faulted = true
		kind := string(ev.Err.Kind)
		r.span.SetAttributes(semconv.ErrorTypeKey.String(kind))
		msg := faultText(ev.Err, t.opts.Content)
		r.span.AddEvent(semconv.ExceptionEventName, trace.WithTimestamp(at), trace.WithAttributes(
			semconv.ExceptionType(fmt.Sprintf("%T", ev.Err)), semconv.ExceptionMessage(msg)))
		r.span.SetStatus(codes.Error, msg)
		// A model call still open failed, or was cut short by the run's
		// end; either way it got no reply.
		if r.chat != nil {
			r.chat.SetAttributes(semconv.ErrorTypeKey.String(kind))
			r.chat.SetStatus(codes.Error, msg)
		}
	}
	if !r.delegal {
		t.closeRun(key, r, at)
	}
}

// runDetached ends the spans of a run its agent let go while it waited
// for people, each marked so: nothing more of it reaches this tracer, and
// a process that picks it up again traces the rest. A delegate's child is
// ended with its root, which its agent lets go last.
func (t *Tracer) runDetached(key string, r *runSpans, ev contract.RunEvent, at time.Time) {
	if len(ev.Subflow) > 0 {
		return
	}
	t.closeRun(key, r, at, attribute.Bool("baton.run.detached", true))
}

// detach ends the spans of the runs a's events opened and drops the
// events still on their way.
func (t *Tracer) detach(a *attachment) {
	t.mu.Lock()
	defer t.mu.Unlock()
	a.detached = true
	for _, key := range slices.Sorted(maps.Keys(t.runs)) {
		// A child ended with its parent is gone by now.
		if r := t.runs[key]; r != nil && r.owner == a {
			t.closeRun(key, r, r.last, attribute.Bool("baton.tracing.detached", true))
		}
	}
}

// closeRun ends the run's span and any it left open, its children's
// runs with them, setting marks on each: a span ended early says why as
// its run's does.
func (t *Tracer) closeRun(key string, r *runSpans, at time.Time, marks ...attribute.KeyValue) {
	for _, k := range r.children {
		if c := t.runs[k]; c != nil {
			t.closeRun(k, c, at, marks...)
		}
	}
	endSpan(r.chat, at, marks...)
	for _, s := range r.tools {
		endSpan(s, at, marks...)
	}
	endSpan(r.span, at, marks...)
	delete(t.runs, key)
}

func endSpan(s trace.Span, at time.Time, marks ...attribute.KeyValue) {
	if s == nil {
		return
	}
	if len(marks) > 0 {
		s.SetAttributes(marks...)
	}
	s.End(trace.WithTimestamp(at))
}

// errorText is the first line of an error's text, without the URLs and
// credentials it may quote: spans leave the process for a collector, as
// the wire's errors leave it for clients.
func errorText(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return redact.Error(line)
}
