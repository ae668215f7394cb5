package cadence_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/cadence/cadencetest"
	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// machine is the state of one random session under test, with what the
// invariants need to remember between steps.
type machine struct {
	cfg     contract.AgentConfig
	rules   *cadence.Rules
	snap    contract.RunSnapshot
	records []contract.Record
	seq     uint64
	// invokes counts this run's invoke_model effects, leaving out those a
	// Resumed re-emits.
	invokes int
	// steers are accepted steering texts not yet seen in history.
	steers []string
	// delivered are steering texts delivered since the last model call;
	// the next call must show each of them verbatim.
	delivered []string
	// aborted says an abort was accepted in this run.
	aborted bool
	// compacts counts compact effects since the last invoke_model.
	compacts int
	// compacted is the history the newest compact effect was emitted on
	// (a resume's re-sent one aside), once there was one.
	compacted    contract.History
	hasCompacted bool
	// scratch serves every step of the session through AdvanceIn;
	// published holds the events of the step before, with their JSON
	// as it was then.
	scratch   cadence.Scratch
	published []publishedEvent
	// owned is the session moved only through inPlace, a Scratch that
	// changes pending calls in place: its Pending is shared with no
	// other snapshot, as a host that sets PendingInPlace keeps it, and
	// ownedEvents are the events its steps published, with their JSON.
	owned       contract.RunSnapshot
	inPlace     cadence.Scratch
	ownedEvents []publishedEvent
}

type publishedEvent struct {
	ev   *contract.RunEvent
	json []byte
}

func eventJSON(t *rapid.T, ev *contract.RunEvent) []byte {
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatalf("encode event: %v", err)
	}
	return b
}

func encodeSnap(t *rapid.T, s contract.RunSnapshot) []byte {
	b, err := contract.EncodeSnapshot(s)
	if err != nil {
		t.Fatalf("encode snapshot: %v", err)
	}
	return b
}

func (m *machine) step(t *rapid.T, sig contract.Signal) {
	before := encodeSnap(t, m.snap)
	next, effects, err := m.rules.Step(m.snap, sig)
	// Invariant 1: equal inputs give equal outputs, the input is unchanged.
	next2, effects2, err2 := m.rules.Step(m.snap, sig)
	if !bytes.Equal(encodeSnap(t, next), encodeSnap(t, next2)) || cadence.Summarize(effects) != cadence.Summarize(effects2) || fmt.Sprint(err) != fmt.Sprint(err2) {
		t.Fatalf("Step is not deterministic for %s", sig.SignalKind())
	}
	if !bytes.Equal(before, encodeSnap(t, m.snap)) {
		t.Fatalf("Step changed its input snapshot on %s", sig.SignalKind())
	}
	// Invariant 1b: Advance moves a copy in place to what Step returns
	// (the snapshot as it was, when it refuses), with the same effects;
	// so does AdvanceIn in the session's one Scratch, and the events an
	// earlier step published in it are as they were.
	moved := m.snap
	effects3, err3 := m.rules.Advance(&moved, sig)
	if !bytes.Equal(encodeSnap(t, moved), encodeSnap(t, next)) || cadence.Summarize(effects3) != cadence.Summarize(effects) || fmt.Sprint(err3) != fmt.Sprint(err) {
		t.Fatalf("Advance and Step differ on %s", sig.SignalKind())
	}
	moved = m.snap
	effects4, err4 := m.rules.AdvanceIn(&m.scratch, &moved, sig)
	if !bytes.Equal(encodeSnap(t, moved), encodeSnap(t, next)) || cadence.Summarize(effects4) != cadence.Summarize(effects) || fmt.Sprint(err4) != fmt.Sprint(err) {
		t.Fatalf("AdvanceIn and Step differ on %s", sig.SignalKind())
	}
	if !bytes.Equal(before, encodeSnap(t, m.snap)) {
		t.Fatalf("AdvanceIn changed the snapshot it was given a copy of on %s: what the scratch kept from the step before leaked into this one", sig.SignalKind())
	}
	for _, p := range m.published {
		if got := eventJSON(t, p.ev); !bytes.Equal(got, p.json) {
			t.Fatalf("an event published before %s changed when its step's scratch was used again:\nwas %s\nnow %s", sig.SignalKind(), p.json, got)
		}
	}
	m.published = m.published[:0]
	for _, e := range effects4 {
		if p, ok := e.(*contract.Publish); ok {
			// What a host's hub keeps: the event struct, copied.
			ev := p.Event
			m.published = append(m.published, publishedEvent{ev: &ev, json: eventJSON(t, &ev)})
		}
	}
	m.stepInPlace(t, sig, next, effects, err)
	if err != nil {
		m.checkRejection(t, sig, next, effects, err, before)
		return
	}
	persist, committed := effects[0].(*contract.Persist)
	if !committed {
		t.Fatalf("%s committed without a persist first: %s", sig.SignalKind(), cadence.Summarize(effects))
	}
	m.checkCommitted(t, sig, persist.Record, next, effects)
	m.records = append(m.records, persist.Record)
	m.snap = next
}

// stepInPlace steps the owned session, whose pending calls change in
// place: it must reach what Step returned (and stay as it was when Step
// refuses), and no event any of its steps published may change.
func (m *machine) stepInPlace(t *rapid.T, sig contract.Signal, next contract.RunSnapshot, effects []contract.Effect, err error) {
	m.inPlace.PendingInPlace = true
	got, gotErr := m.rules.AdvanceIn(&m.inPlace, &m.owned, sig)
	if !bytes.Equal(encodeSnap(t, m.owned), encodeSnap(t, next)) || cadence.Summarize(got) != cadence.Summarize(effects) || fmt.Sprint(gotErr) != fmt.Sprint(err) {
		t.Fatalf("AdvanceIn with pending calls changed in place and Step differ on %s (refused: %v)", sig.SignalKind(), err)
	}
	for _, p := range m.ownedEvents {
		if now := eventJSON(t, p.ev); !bytes.Equal(now, p.json) {
			t.Fatalf("an event published before %s changed when pending calls changed in place:\nwas %s\nnow %s", sig.SignalKind(), p.json, now)
		}
	}
	for _, e := range got {
		if p, ok := e.(*contract.Publish); ok {
			ev := p.Event
			m.ownedEvents = append(m.ownedEvents, publishedEvent{ev: &ev, json: eventJSON(t, &ev)})
		}
	}
}

// checkRejection: a bad signal yields a *Rejection naming it, no effects,
// and leaves the snapshot as it was (terminal phases absorb all but
// submit).
func (m *machine) checkRejection(t *rapid.T, sig contract.Signal, next contract.RunSnapshot, effects []contract.Effect, err error, before []byte) {
	if len(effects) != 0 {
		t.Fatalf("rejection of %s has %d effects: %s", sig.SignalKind(), len(effects), cadence.Summarize(effects))
	}
	var rej *cadence.Rejection
	if !errors.As(err, &rej) || !errors.Is(err, cadence.ErrRejected) || rej.Signal != sig.SignalKind() || rej.Phase != m.snap.Phase || rej.Reason == "" {
		t.Fatalf("rejection of %s is not a *Rejection naming it: %v", sig.SignalKind(), err)
	}
	if !bytes.Equal(before, encodeSnap(t, next)) {
		t.Fatalf("rejected %s changed the snapshot", sig.SignalKind())
	}
}

func runningCalls(s contract.RunSnapshot) int {
	n := 0
	for _, p := range s.Pending {
		if p.State == contract.CallDispatched || p.State == contract.CallStarted {
			n++
		}
	}
	return n
}

func (m *machine) checkCommitted(t *rapid.T, sig contract.Signal, rec contract.Record, next contract.RunSnapshot, effects []contract.Effect) {
	phase := m.snap.Phase
	// Invariant 2: terminal phases absorb every signal but submit.
	if phase.Terminal() && sig.SignalKind() != contract.SigSubmitted {
		t.Fatalf("%s accepted in terminal phase %s", sig.SignalKind(), phase)
	}
	if rec.Step != m.snap.Steps+1 || next.Steps != rec.Step || rec.Signal == nil {
		t.Fatalf("persisted record step %d after step %d", rec.Step, m.snap.Steps)
	}
	// From revision 2 the rules bound the calls running at once.
	if running := runningCalls(next); next.Revision >= contract.RevisionReducerSchedules && running > m.rules.Config().ToolConcurrency {
		t.Fatalf("%d calls running, ToolConcurrency %d", running, m.rules.Config().ToolConcurrency)
	}
	if _, ok := sig.(contract.Submitted); ok {
		m.invokes, m.steers, m.aborted, m.compacts = 0, nil, false, 0
	}
	if a, ok := sig.(contract.AbortRequested); ok && phase.InFlight() && a.Mode != "" {
		m.aborted = true
	}
	if s, ok := sig.(contract.Steered); ok && phase.InFlight() {
		m.steers = append(m.steers, s.Input[0].Text())
	}
	_, resumed := sig.(contract.Resumed)
	m.checkSteering(t, next, effects)
	for _, e := range effects[1:] {
		switch e := e.(type) {
		case *contract.Persist:
			t.Fatalf("a second persist in one step")
		case *contract.Publish:
			// Publish effects carry a strictly increasing sequence number.
			if e.Event.Seq != m.seq+1 {
				t.Fatalf("publish %s has seq %d after %d", e.Event.Kind, e.Event.Seq, m.seq)
			}
			m.seq = e.Event.Seq
		case *contract.InvokeModel:
			// A resume in awaiting_model re-sends the lost call; any other
			// invoke_model is a new call.
			m.checkInvoke(t, *e, next, resumed && phase == contract.PhaseAwaitingModel)
		case *contract.RunTool:
			// Invariant 8: after an abort nothing new runs.
			if m.aborted {
				t.Fatalf("run_tool %s after an abort", e.Call.ID)
			}
			if e.Call.Name == cadencetest.UnknownTool {
				t.Fatalf("run_tool for an unknown tool")
			}
		case *contract.Compact:
			if !resumed {
				m.compacts++
			} else if phase == contract.PhaseAwaitingModel {
				// From revision 11 a resume whose steering brings history
				// due compacts before the lost call goes out again; the
				// boundary after the summary sends it as a new call.
				m.invokes--
			}
			if m.compacts > 1 {
				t.Fatalf("compaction loop: two compact effects with no model call between")
			}
			m.checkCompactAgain(t, next, resumed)
		}
	}
	if next.Seq != m.seq {
		t.Fatalf("snapshot seq %d, last published %d", next.Seq, m.seq)
	}
	m.checkEnd(t, sig, next)
	m.checkCompaction(t, sig, next, effects)
}

// checkCompactAgain holds invariant 7's "no compaction loops" across
// model calls: from revision 3 compaction is never asked for twice on the
// same history, even with a model call (that overflowed) between.
func (m *machine) checkCompactAgain(t *rapid.T, next contract.RunSnapshot, resumed bool) {
	if resumed {
		return
	}
	if next.Revision >= contract.RevisionSteeringFirst && m.hasCompacted && next.History.Equal(m.compacted) {
		t.Fatalf("compaction loop: compact asked for again on a history of %d turns that has not changed since the last one", next.History.Len())
	}
	m.compacted, m.hasCompacted = next.History, true
}

// checkInvoke holds invariants 3, 4, 5 and 8 at every model call.
func (m *machine) checkInvoke(t *rapid.T, e contract.InvokeModel, next contract.RunSnapshot, resumed bool) {
	if m.aborted {
		t.Fatalf("invoke_model after an abort (resumed=%v)", resumed)
	}
	if resumed {
		// A resume re-sends the call a restart lost: the same model call,
		// not a new boundary. Before revision 6 steering waits for the
		// next one; from revision 6 the call sent again carries it.
		if err := wellPaired(e.Request.History.Turns()); err != "" {
			t.Fatalf("re-sent invoke_model with a badly paired history: %s", err)
		}
		if next.Revision >= contract.RevisionSteerOnResume {
			m.checkSteered(t, e)
		}
		return
	}
	m.invokes++
	m.compacts = 0
	if max := m.rules.Config().MaxTurns; m.invokes > max {
		t.Fatalf("%d invoke_model effects in one run, cap %d", m.invokes, max)
	}
	if e.Request.Turn != next.Turns || next.Turns != m.invokes {
		t.Fatalf("request turn %d, snapshot turns %d, counted %d", e.Request.Turn, next.Turns, m.invokes)
	}
	if err := wellPaired(e.Request.History.Turns()); err != "" {
		t.Fatalf("invoke_model with a badly paired history: %s", err)
	}
	m.checkSteered(t, e)
}

// checkSteered holds invariant 5 at a model call: every accepted steer
// was delivered before it and appears in its history exactly once.
func (m *machine) checkSteered(t *rapid.T, e contract.InvokeModel) {
	if len(m.steers) > 0 {
		t.Fatalf("model called before steering %q was delivered", m.steers)
	}
	for _, text := range m.delivered {
		if n := countText(e.Request.History, text); n != 1 {
			t.Fatalf("model called with steer %q appearing %d times in its history", text, n)
		}
	}
	m.delivered = nil
}

// checkSteering holds invariant 5 where steering is delivered: each
// delivered input was accepted, is delivered once, and is in history
// exactly once.
func (m *machine) checkSteering(t *rapid.T, next contract.RunSnapshot, effects []contract.Effect) {
	for _, e := range effects {
		p, ok := e.(*contract.Publish)
		if !ok || p.Event.Kind != contract.EvSteeringApplied {
			continue
		}
		i := slices.Index(m.steers, p.Event.Text)
		if i < 0 {
			t.Fatalf("steering %q delivered but not outstanding (doubled?)", p.Event.Text)
		}
		if i > 0 {
			t.Fatalf("steering %q delivered before %q, which arrived first", p.Event.Text, m.steers[:i])
		}
		m.steers = slices.Delete(m.steers, i, i+1)
		m.delivered = append(m.delivered, p.Event.Text)
		if n := countText(next.History, p.Event.Text); n != 1 {
			t.Fatalf("steer %q appears %d times in history after delivery", p.Event.Text, n)
		}
	}
}

// checkEnd: how a run may end.
func (m *machine) checkEnd(t *rapid.T, sig contract.Signal, next contract.RunSnapshot) {
	if !next.Phase.Terminal() || m.snap.Phase.Terminal() {
		return
	}
	if len(next.Pending) > 0 {
		t.Fatalf("run ended with %d calls pending", len(next.Pending))
	}
	if err := wellPaired(next.History.Turns()); err != "" {
		t.Fatalf("run ended with a badly paired history: %s", err)
	}
	if next.Phase == contract.PhaseSettled {
		if next.Err != nil || len(m.steers) > 0 {
			t.Fatalf("settled with error %v and undelivered steering %q", next.Err, m.steers)
		}
		return
	}
	// Invariant 5 on a faulted run: from revision 3 the loop guard never
	// ends a run while accepted steering waits to reach the model.
	if next.Err.Kind == contract.KindLoop && next.Revision >= contract.RevisionSteeringFirst && len(m.steers) > 0 {
		t.Fatalf("faulted by the loop guard (%v) with accepted steering %q never delivered", next.Err, m.steers)
	}
	// Invariant 9: a tool's failure never faults the run.
	switch next.Err.Kind {
	case contract.KindAborted:
		if !m.aborted {
			t.Fatalf("faulted as aborted with no abort")
		}
	case contract.KindMaxTurns:
		if m.invokes != m.rules.Config().MaxTurns {
			t.Fatalf("max_turns fault after %d model calls, cap %d", m.invokes, m.rules.Config().MaxTurns)
		}
	case contract.KindRetrieval:
		// Only the submit that brought the retriever's failure ends a
		// run so, before any model call.
		if sub, ok := sig.(contract.Submitted); !ok || sub.RetrievalError == "" || next.Turns != 0 {
			t.Fatalf("faulted with kind retrieval on %s after %d model calls", sig.SignalKind(), next.Turns)
		}
	case contract.KindLoop, contract.KindModel:
	default:
		t.Fatalf("run faulted with kind %s: %v", next.Err.Kind, next.Err)
	}
}

// checkCompaction holds invariant 7 when a summary lands and replaces
// history[:cut]: the cut keeps the newest KeepRecent turns, the kept turns
// are verbatim, the estimate shrinks, and no call is split from its result.
func (m *machine) checkCompaction(t *rapid.T, sig contract.Signal, next contract.RunSnapshot, effects []contract.Effect) {
	c, ok := sig.(contract.Compacted)
	if !ok || !swapped(effects) {
		return
	}
	old := m.snap.History.Turns()
	keep := m.rules.Config().Compaction.KeepRecent
	if c.Cut < 1 || c.Cut > len(old)-keep {
		t.Fatalf("compaction cut %d of %d turns keeps fewer than %d", c.Cut, len(old), keep)
	}
	condensed := next.History.Turns()
	condensed = condensed[:min(len(condensed), 2+len(old)-c.Cut)]
	for i := range condensed {
		// A run that ends in the same step marks its turns excluded
		// (revision 1); their content is what counts here.
		condensed[i].Excluded = old[min(max(i-2+c.Cut, 0), len(old)-1)].Excluded
	}
	if condensed[0].Mark != contract.MarkSummary || !containsRun(condensed[2:], old[c.Cut:]) {
		t.Fatalf("compaction did not keep turns %d.. verbatim after its summary", c.Cut)
	}
	if got, was := contract.HistoryOf(condensed...).Tokens(), m.snap.History.Tokens(); got >= was {
		t.Fatalf("compaction did not shrink the estimate: %d -> %d", was, got)
	}
	if err := wellPaired(next.History.Turns()); err != "" {
		t.Fatalf("compaction split a call from its result: %s", err)
	}
}

// swapped reports whether the step's compaction event says history was
// replaced (it names the cut) rather than skipped.
func swapped(effects []contract.Effect) bool {
	for _, e := range effects {
		if p, ok := e.(*contract.Publish); ok && p.Event.Kind == contract.EvCompaction && p.Event.Index > 0 {
			return true
		}
	}
	return false
}

func containsRun(turns, run []contract.Turn) bool {
	for i := 0; i+len(run) <= len(turns); i++ {
		if contract.HistoryOf(turns[i : i+len(run)]...).Equal(contract.HistoryOf(run...)) {
			return true
		}
	}
	return false
}

func countText(h contract.History, text string) int {
	n := 0
	for _, turn := range h.All() {
		if turn.Text() == text {
			n++
		}
	}
	return n
}

// wellPaired checks invariant 3: every assistant turn with calls is
// followed by one tool turn answering each call, in call order.
func wellPaired(turns []contract.Turn) string {
	for i, turn := range turns {
		calls := turn.Calls()
		if turn.Role == contract.RoleTool {
			if i == 0 || len(turns[i-1].Calls()) == 0 {
				return fmt.Sprintf("tool turn %d answers no calls", i)
			}
			continue
		}
		if len(calls) == 0 {
			continue
		}
		if i+1 >= len(turns) || turns[i+1].Role != contract.RoleTool {
			return fmt.Sprintf("turn %d has calls and no tool turn after it", i)
		}
		var want, got []string
		for _, c := range calls {
			want = append(want, c.ID)
		}
		for _, r := range turns[i+1].Results() {
			got = append(got, r.CallID)
		}
		if !slices.Equal(want, got) {
			return fmt.Sprintf("turn %d calls %v, answered %v", i, want, got)
		}
	}
	return ""
}

// replay holds invariant 6: the session's records, encoded and decoded,
// fold to the same snapshot bytes, and Replay finds no divergence.
func (m *machine) replay(t *rapid.T) {
	stored := make([]contract.Record, len(m.records))
	for i, rec := range m.records {
		b, err := contract.EncodeRecord(rec)
		if err != nil {
			t.Fatalf("encode record %d: %v", rec.Step, err)
		}
		if stored[i], err = contract.DecodeRecord(b); err != nil {
			t.Fatalf("decode record %d: %v", rec.Step, err)
		}
	}
	got, err := m.rules.Replay(cadence.InitialSnapshot("session"), stored)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if want, have := encodeSnap(t, m.snap), encodeSnap(t, got); !bytes.Equal(want, have) {
		t.Fatalf("replayed snapshot differs:\nlive   %s\nreplay %s", want, have)
	}
}

func TestStepProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := cadencetest.Config().Draw(t, "config")
		m := &machine{cfg: cfg, rules: cadence.New(cfg), snap: cadence.InitialSnapshot("session"), owned: cadence.InitialSnapshot("session")}
		t.Repeat(map[string]func(*rapid.T){
			"smart": func(t *rapid.T) {
				m.step(t, cadencetest.Signal(cfg, m.snap).Draw(t, "signal"))
			},
			"hostile": func(t *rapid.T) {
				m.step(t, cadencetest.Hostile(m.snap).Draw(t, "signal"))
			},
			"host input": func(t *rapid.T) {
				m.step(t, cadencetest.HostInput(m.snap).Draw(t, "signal"))
			},
			// A model that repeats its last call, so the loop guard's
			// thresholds (and steering that arrives as they are reached)
			// come up often.
			"repeat": func(t *rapid.T) {
				sig, ok := repeatLast(m.snap)
				if !ok {
					t.Skip("no call to repeat")
				}
				m.step(t, sig)
			},
			"": func(t *rapid.T) {
				if m.snap.Turns > m.rules.Config().MaxTurns {
					t.Fatalf("%d model calls, cap %d", m.snap.Turns, m.rules.Config().MaxTurns)
				}
				if !m.snap.Phase.InFlight() && (len(m.snap.Pending) > 0 || len(m.snap.Queued) > 0) {
					t.Fatalf("phase %s holds pending calls or queued input", m.snap.Phase)
				}
			},
		})
		m.replay(t)
	})
}

// repeatLast is a reply that makes the run's newest call again, when the
// model is awaited and the run has made one.
func repeatLast(s contract.RunSnapshot) (contract.Signal, bool) {
	if s.Phase != contract.PhaseAwaitingModel || len(s.Recent) == 0 {
		return nil, false
	}
	name, args, _ := strings.Cut(s.Recent[len(s.Recent)-1], " ")
	call := contract.ToolCall{ID: fmt.Sprintf("repeat-%d", s.Steps+1), Name: name, Arguments: args}
	at := cadencetest.At(s)
	return contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(call)}}, Stop: contract.StopToolUse, At: at}, true
}

// TestStepNeverPanics feeds arbitrary signals to arbitrary (even
// impossible) snapshots.
func TestStepNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := cadencetest.Config().Draw(t, "config")
		rules := cadence.New(cfg)
		snap := cadence.InitialSnapshot("s")
		snap.Phase = rapid.SampledFrom(append(slices.Clone(contract.Phases), "bogus")).Draw(t, "phase")
		if rapid.Bool().Draw(t, "pending") {
			snap.Pending = []contract.PendingCall{{Call: contract.ToolCall{ID: "nope", Name: "echo"}, State: contract.CallState(rapid.SampledFrom([]string{"queued", "dispatched", "started", "done", "awaiting_approval", "awaiting_human"}).Draw(t, "state"))}}
		}
		sig := cadencetest.Hostile(snap).Draw(t, "signal")
		_, effects, err := rules.Step(snap, sig)
		if (err == nil) == (len(effects) == 0) {
			t.Fatalf("err %v with %d effects", err, len(effects))
		}
		_ = strings.TrimSpace
	})
}
