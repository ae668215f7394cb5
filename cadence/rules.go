package cadence

import (
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// Rules is the reducer bound to one agent configuration.
type Rules struct {
	cfg contract.AgentConfig
	// offered is cfg.Tools with the delegates' tools after them; byName
	// indexes it when it is too long to search.
	offered []contract.ToolDescriptor
	byName  map[string]int
	// estimators count for the model before and from
	// contract.RevisionBoundedEstimates (see estimator), found once
	// rather than at every step.
	estimators [2]compactor.Estimator
}

// searchedTools is how many tools are looked up by going through them
// rather than by a map: a map of a few descriptors costs an agent more
// memory than it saves time.
const searchedTools = 8

// New binds the reducer to cfg, with defaults applied. cfg should have
// passed Validate; New does not check it again.
func New(cfg contract.AgentConfig) *Rules {
	cfg = cfg.WithDefaults()
	r := &Rules{cfg: cfg, offered: offeredTools(cfg)}
	r.estimators[0] = compactor.EstimatorFor(cfg.Model, contract.RevisionBoundedEstimates-1)
	r.estimators[1] = compactor.EstimatorFor(cfg.Model, contract.RevisionBoundedEstimates)
	if len(r.offered) > searchedTools {
		r.byName = make(map[string]int, len(r.offered))
		for i, t := range r.offered {
			r.byName[t.Name] = i
		}
	}
	return r
}

// tool returns the agent's tool named name.
func (r *Rules) tool(name string) (contract.ToolDescriptor, bool) {
	if r.byName != nil {
		i, ok := r.byName[name]
		if !ok {
			return contract.ToolDescriptor{}, false
		}
		return r.offered[i], true
	}
	// From the end: of two tools of one name (a config Validate would
	// refuse), the later is the one, as with the map.
	for i := len(r.offered) - 1; i >= 0; i-- {
		if r.offered[i].Name == name {
			return r.offered[i], true
		}
	}
	return contract.ToolDescriptor{}, false
}

// Config returns the configuration the rules were bound to.
func (r *Rules) Config() contract.AgentConfig { return r.cfg }

// InitialSnapshot is the state of a new, empty session.
func InitialSnapshot(sessionID string) contract.RunSnapshot {
	return contract.RunSnapshot{SessionID: sessionID, Phase: contract.PhaseIdle}
}

// phaseStep handles one signal in one phase. It returns a non-empty
// reason to reject the signal.
type phaseStep func(t *transition) (reject string)

// Step applies one signal and returns the next snapshot with the effects
// to perform, the record to persist first. A signal that does not fit s
// is refused with a *Rejection (errors.Is ErrRejected): s comes back
// unchanged, with no effects. Step never panics and never changes s.
func (r *Rules) Step(s contract.RunSnapshot, sig contract.Signal) (contract.RunSnapshot, []contract.Effect, error) {
	effects, err := r.Advance(&s, sig)
	return s, effects, err
}

// Advance is Step for a host that keeps one snapshot and moves it on in
// place: *s becomes the next snapshot, or stays as it was when sig is
// refused. It spares the host the copies of the snapshot a call by value
// makes on its stack, which a host running a step on the stack of a run
// that waits for its model pays for as long as the run lasts.
func (r *Rules) Advance(s *contract.RunSnapshot, sig contract.Signal) ([]contract.Effect, error) {
	return r.advance(newTransition(), s, sig)
}

// Scratch is the working memory of a step, about 6.5 KiB, for a host that
// performs each step's effects before it takes the next: the effects
// AdvanceIn returns point into it, and are good until it is used for
// another step. What a step publishes points into it at nothing, so
// events delivered later stay whole. The zero Scratch is ready.
type Scratch struct {
	// PendingInPlace lets the steps taken in this Scratch change the
	// snapshot's pending calls in place rather than copy them first, for
	// a host whose snapshot shares its Pending with no other: it copies
	// Pending into every snapshot it hands out, and restores it, not
	// just the snapshot, when it goes back to an earlier state. Events
	// point at calls, which are still changed on a copy.
	PendingInPlace bool

	t    transition
	used bool
	// More room than a step taken without a Scratch has, enough for a
	// reply with a batch of calls: a Scratch is used again, so the room
	// costs its host nothing a step. Clear zeroes only what a step used.
	room    [24]contract.Effect
	events  [16]contract.Publish
	invokes [1]contract.InvokeModel
	runs    [8]contract.RunTool
}

// AdvanceIn is Advance working in sc, which it clears first: a host
// stepping many runs can keep a few Scratches (in a sync.Pool, say)
// rather than have every step allocate its memory.
func (r *Rules) AdvanceIn(sc *Scratch, s *contract.RunSnapshot, sig contract.Signal) ([]contract.Effect, error) {
	sc.Clear()
	sc.used = true
	sc.t.effectRoom, sc.t.eventRoom, sc.t.invokeRoom, sc.t.runRoom = sc.room[:], sc.events[:], sc.invokes[:], sc.runs[:]
	sc.t.inPlace = sc.PendingInPlace
	return r.advance(&sc.t, s, sig)
}

// Clear lets go of what the last step left in sc (its snapshot, signal
// and effects), so a Scratch put aside keeps none of it alive. The
// effects that step returned must not be used after.
func (sc *Scratch) Clear() {
	if !sc.used {
		return
	}
	// Only the room the step used holds anything.
	clear(sc.room[:min(len(sc.t.effects), len(sc.room))])
	clear(sc.events[:sc.t.nevents])
	clear(sc.invokes[:sc.t.ninvoke])
	clear(sc.runs[:sc.t.nruns])
	sc.t = transition{}
	sc.used = false
}

// advance steps *s by sig in t, which is zero.
func (r *Rules) advance(t *transition, s *contract.RunSnapshot, sig contract.Signal) ([]contract.Effect, error) {
	if sig == nil {
		return nil, reject(s.Phase, nil, "no signal")
	}
	if !callable(sig) {
		return nil, reject(s.Phase, nil, "nil or broken signal")
	}
	t.rules, t.sig, t.at = r, sig, sig.When()
	t.s = *s
	t.effects = t.effectRoom[:1]
	if res, ok := sig.(contract.Resumed); ok {
		t.upgrade(res)
	}
	if reason := r.stepFor(s.Phase)(t); reason != "" {
		return nil, reject(s.Phase, sig, reason)
	}
	t.commit()
	*s = t.s
	return t.effects, nil
}

func (r *Rules) stepFor(p contract.Phase) phaseStep {
	switch p {
	case contract.PhaseIdle, contract.PhaseSettled, contract.PhaseFaulted:
		return stepIdle
	case contract.PhaseAwaitingModel:
		return stepAwaitingModel
	case contract.PhaseAwaitingTools, contract.PhaseAwaitingApproval:
		return stepAwaitingTools
	case contract.PhaseAwaitingHuman:
		return stepAwaitingHuman
	case contract.PhaseCompacting:
		return stepCompacting
	}
	return stepUnknown
}

// callable reports whether sig's methods can be called: a nil pointer to
// a signal type panics in them, and cadence has no reflect to ask first.
func callable(sig contract.Signal) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	sig.SignalKind()
	sig.When()
	return true
}

func stepUnknown(t *transition) string {
	return "snapshot has unknown phase " + string(t.s.Phase)
}
