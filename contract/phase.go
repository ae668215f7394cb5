package contract

// Phase is where a run stands.
type Phase string

const (
	PhaseIdle             Phase = "idle"
	PhaseAwaitingModel    Phase = "awaiting_model"
	PhaseAwaitingTools    Phase = "awaiting_tools"
	PhaseAwaitingApproval Phase = "awaiting_approval"
	// PhaseAwaitingHuman waits, with no timeout, for a person to answer a
	// question the model asked.
	PhaseAwaitingHuman Phase = "awaiting_human"
	PhaseCompacting    Phase = "compacting"
	PhaseSettled       Phase = "settled"
	PhaseFaulted       Phase = "faulted"
)

// Phases lists every phase in a fixed order.
var Phases = []Phase{PhaseIdle, PhaseAwaitingModel, PhaseAwaitingTools, PhaseAwaitingApproval, PhaseAwaitingHuman, PhaseCompacting, PhaseSettled, PhaseFaulted}

// Terminal reports whether the phase ends a run.
func (p Phase) Terminal() bool { return p == PhaseSettled || p == PhaseFaulted }

// InFlight reports whether a run is under way.
func (p Phase) InFlight() bool { return p != PhaseIdle && !p.Terminal() }
