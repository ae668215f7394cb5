package cadence

import (
	"github.com/batonrt/baton/contract"
)

// transition is the working state of one Step. It holds a copy of the
// snapshot struct; slices reached from it are shared with the input
// snapshot, so every change to them goes through a copy first.
type transition struct {
	rules   *Rules
	s       contract.RunSnapshot
	sig     contract.Signal
	at      contract.Timestamp
	effects []contract.Effect
	// persist is the effect every step points to first, kept here so
	// it costs no allocation of its own. Events hold no pointer into
	// the transition: a subscriber may read them after its memory served
	// another step.
	persist contract.Persist
	nevents int
	ninvoke int
	nruns   int
	// effectRoom, eventRoom, invokeRoom and runRoom are where the step's
	// effects go while there is room: a stepRoom's arrays, or a
	// Scratch's larger ones. They are not in the transition itself,
	// which a Scratch clears after every step.
	effectRoom []contract.Effect
	eventRoom  []contract.Publish
	invokeRoom []contract.InvokeModel
	runRoom    []contract.RunTool
	// ownPending says s.Pending was already copied in this step;
	// inPlace that the host lets it change without a copy
	// (Scratch.PendingInPlace).
	ownPending bool
	inPlace    bool
	// links are the child sessions of delegate calls answered this step.
	links []string
}

// stepRoom is a transition with room for a usual step's effects, so
// that a step taken without a Scratch makes them in one allocation.
type stepRoom struct {
	t       transition
	room    [8]contract.Effect
	events  [3]contract.Publish
	invokes [1]contract.InvokeModel
	runs    [2]contract.RunTool
}

// newTransition returns a zero transition with room of its own.
func newTransition() *transition {
	r := new(stepRoom)
	r.t.effectRoom, r.t.eventRoom, r.t.invokeRoom, r.t.runRoom = r.room[:], r.events[:], r.invokes[:], r.runs[:]
	return &r.t
}

func (t *transition) emit(e contract.Effect) { t.effects = append(t.effects, e) }

// publish stamps the event with the next sequence number.
func (t *transition) publish(ev contract.RunEvent) {
	t.s.Seq++
	ev.Seq = t.s.Seq
	ev.SessionID = t.s.SessionID
	ev.RunID = t.s.RunID
	ev.At = t.at
	p := slot(t.eventRoom, &t.nevents)
	p.Event = ev
	t.emit(p)
}

// slot returns the next free element of a step's room, counting it in
// n, or a new one once the room is full.
func slot[T any](room []T, n *int) *T {
	if *n == len(room) {
		return new(T)
	}
	*n++
	return &room[*n-1]
}

// appendTurn adds a turn the rules made to history with its token
// estimate.
func (t *transition) appendTurn(turn contract.Turn) {
	t.appendCounted(turn, 0)
}

// appendInput adds a turn of a host's input, whose estimate the host's
// side counted and the signal carries (zero in a signal recorded before
// input carried its count: it is counted here).
func (t *transition) appendInput(turn contract.Turn) {
	t.appendCounted(turn, turn.Tokens)
}

// appendCounted adds a turn whose estimate its signal carried, counted
// off the agent's loop by the worker that made the turn; zero (a signal
// recorded before estimates were carried) has it counted here.
func (t *transition) appendCounted(turn contract.Turn, tokens int) {
	if tokens <= 0 {
		tokens = t.estimator().Turn(turn)
	}
	turn.Tokens = tokens
	t.s.History = t.s.History.Append(turn)
}

// pending returns the pending calls to change, copied once per step so
// the input snapshot's slice is never written, unless the host lets the
// step change them in place (Scratch.PendingInPlace).
func (t *transition) pending() []contract.PendingCall {
	if !t.ownPending && !t.inPlace {
		t.copyPending()
	}
	return t.s.Pending
}

// pendingCopy returns the pending calls copied in this step even for a
// host that lets them change in place: for a change to a call itself,
// which events published before point at.
func (t *transition) pendingCopy() []contract.PendingCall {
	if !t.ownPending {
		t.copyPending()
	}
	return t.s.Pending
}

func (t *transition) copyPending() {
	t.s.Pending = append([]contract.PendingCall(nil), t.s.Pending...)
	t.ownPending = true
}

// commit finishes an accepted step: the record to persist comes first,
// naming the step's other effects, so a store holds what replay checks.
// The persist's slot is kept at the front of the effects from the start
// (see advance), so committing copies nothing.
func (t *transition) commit() {
	t.s.Steps++
	t.persist = contract.Persist{Record: contract.Record{Step: t.s.Steps, Signal: t.sig, Effects: Summarize(t.effects[1:])}, Links: t.links}
	t.effects[0] = &t.persist
}

// lookupTool resolves a tool name: this run's tools shadow the agent's.
func (t *transition) lookupTool(name string) (contract.ToolDescriptor, bool) {
	for _, d := range t.s.RunTools {
		if d.Name == name {
			return d, true
		}
	}
	return t.rules.tool(name)
}

// toolList is the tools the model is offered: the agent's, with this
// run's tools replacing same-named ones and added after them.
func (t *transition) toolList() []contract.ToolDescriptor {
	if len(t.s.RunTools) == 0 {
		return t.rules.offered
	}
	out := make([]contract.ToolDescriptor, 0, len(t.rules.offered)+len(t.s.RunTools))
	shadowed := func(name string) bool {
		for _, d := range t.s.RunTools {
			if d.Name == name {
				return true
			}
		}
		return false
	}
	for _, d := range t.rules.offered {
		if !shadowed(d.Name) {
			out = append(out, d)
		}
	}
	return append(out, t.s.RunTools...)
}
