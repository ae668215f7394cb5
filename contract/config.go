package contract

import (
	"fmt"
	"time"
)

// Defaults for AgentConfig fields left zero.
const (
	DefaultMaxTurns        = 64
	MaxMaxTurns            = 100_000
	DefaultToolConcurrency = 8
	DefaultToolTimeout     = 2 * time.Minute
	DefaultLoopWarn        = 3
	DefaultLoopCritical    = 5
	DefaultTriggerRatio    = 0.8
	DefaultKeepRecent      = 8
	DefaultContextWindow   = 128_000
	DefaultMaxOutputTokens = 4096
)

// ThinkingLevel asks the model for more or less reasoning.
type ThinkingLevel string

const (
	ThinkingOff    ThinkingLevel = ""
	ThinkingLow    ThinkingLevel = "low"
	ThinkingMedium ThinkingLevel = "medium"
	ThinkingHigh   ThinkingLevel = "high"
)

// CompactionPolicy says when and how history is condensed.
type CompactionPolicy struct {
	// Disabled turns compaction off; the run then faults when the model
	// reports the context is full.
	Disabled bool `json:"disabled,omitempty"`
	// TriggerRatio of ContextWindow at which compaction starts (0..1].
	TriggerRatio float64 `json:"trigger_ratio,omitempty"`
	// KeepRecent newest turns are always kept verbatim.
	KeepRecent int `json:"keep_recent,omitempty"`
	// ContextWindow is the model's context size in tokens.
	ContextWindow int `json:"context_window,omitempty"`
	// MaxMessages, when positive, also starts compaction once the history
	// holds that many turns.
	MaxMessages int `json:"max_messages,omitempty"`
	// MaxChars, when positive, also starts compaction once the history's
	// text, arguments and results reach that many characters.
	MaxChars int `json:"max_chars,omitempty"`
}

// LoopGuard thresholds count repeats of one call (same tool, same
// arguments) or of a two-call alternation. A zero threshold takes its
// default unless that would put it on the wrong side of the one set:
// Warn set alone at or above DefaultLoopCritical puts Critical as far
// above it as the defaults are apart, and Critical set alone at or below
// DefaultLoopWarn puts Warn one below it.
type LoopGuard struct {
	Warn     int `json:"warn,omitempty"`
	Critical int `json:"critical,omitempty"`
}

func (g LoopGuard) withDefaults() LoopGuard {
	switch {
	case g.Warn == 0 && g.Critical == 0:
		g.Warn, g.Critical = DefaultLoopWarn, DefaultLoopCritical
	case g.Critical == 0:
		g.Critical = DefaultLoopCritical
		if g.Warn >= DefaultLoopCritical {
			g.Critical = g.Warn + DefaultLoopCritical - DefaultLoopWarn
		}
	case g.Warn == 0:
		g.Warn = DefaultLoopWarn
		if g.Critical > 1 {
			g.Warn = min(DefaultLoopWarn, g.Critical-1)
		}
	}
	return g
}

// AgentConfig is everything a run's rules depend on.
type AgentConfig struct {
	Model  string `json:"model"`
	System string `json:"system,omitempty"`
	// Tools are the tools offered, as their implementations describe
	// them: a host names tools here only to pick some of its tool box
	// (conductor.Deps.Tools), and the agent fills in each description
	// from the box; no names offer the whole box.
	Tools           []ToolDescriptor `json:"tools,omitempty"`
	MaxOutputTokens int              `json:"max_output_tokens,omitempty"`
	Thinking        ThinkingLevel    `json:"thinking,omitempty"`
	Compaction      CompactionPolicy `json:"compaction,omitzero"`
	// MaxTurns caps model calls per run. Zero means DefaultMaxTurns; the
	// cap cannot be switched off.
	MaxTurns  int       `json:"max_turns,omitempty"`
	LoopGuard LoopGuard `json:"loop_guard,omitzero"`
	// ToolConcurrency bounds tools running at once; from revision 2 the
	// rules enforce it.
	ToolConcurrency int `json:"tool_concurrency,omitempty"`
	// ToolTimeout is the default per-call timeout.
	ToolTimeout time.Duration `json:"tool_timeout,omitempty"`
	// Delegates are child agents offered to the model as tools.
	Delegates []Delegate `json:"delegates,omitempty"`
	// MaxDelegationDepth bounds how deep delegates may delegate: an agent
	// at this depth is offered no delegates. Zero means
	// DefaultMaxDelegationDepth; the cap cannot be switched off.
	MaxDelegationDepth int `json:"max_delegation_depth,omitempty"`
	// Depth is where this agent runs in a delegation tree: zero for the
	// root. The runtime sets it for children.
	Depth int `json:"depth,omitempty"`
	// Sampling holds the request options passed to the provider.
	Sampling Sampling `json:"sampling,omitzero"`
	// FailedRuns says what later model calls see of a run that faulted or
	// was aborted; see FailedRunsPolicy.
	FailedRuns FailedRunsPolicy `json:"failed_runs,omitempty"`
	// Revision is the revision of the run rules; see CurrentRevision.
	Revision int `json:"revision,omitempty"`
	// Output, when set, requires each run's final answer to be JSON
	// matching a schema; see OutputSchema.
	Output *OutputSchema `json:"output,omitempty"`
}

// WithDefaults returns the config with zero fields set to their defaults.
func (c AgentConfig) WithDefaults() AgentConfig {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.MaxTurns, DefaultMaxTurns)
	def(&c.MaxOutputTokens, DefaultMaxOutputTokens)
	def(&c.ToolConcurrency, DefaultToolConcurrency)
	c.LoopGuard = c.LoopGuard.withDefaults()
	def(&c.Compaction.KeepRecent, DefaultKeepRecent)
	def(&c.Compaction.ContextWindow, DefaultContextWindow)
	if c.Compaction.TriggerRatio == 0 {
		c.Compaction.TriggerRatio = DefaultTriggerRatio
	}
	if c.ToolTimeout == 0 {
		c.ToolTimeout = DefaultToolTimeout
	}
	return c
}

// Validate checks the config after defaults are applied and returns a
// RunError of kind config naming every bad field, or nil.
func (c AgentConfig) Validate() error {
	c = c.WithDefaults()
	var bad []FieldError
	add := func(field, format string, args ...any) {
		bad = append(bad, FieldError{Field: field, Reason: fmt.Sprintf(format, args...)})
	}
	if c.Model == "" {
		add("Model", "is empty")
	}
	if c.MaxTurns < 1 || c.MaxTurns > MaxMaxTurns {
		add("MaxTurns", "must be in 1..%d, got %d", MaxMaxTurns, c.MaxTurns)
	}
	if c.MaxOutputTokens < 1 {
		add("MaxOutputTokens", "must be positive, got %d", c.MaxOutputTokens)
	}
	switch c.Thinking {
	case ThinkingOff, ThinkingLow, ThinkingMedium, ThinkingHigh:
	default:
		add("Thinking", "must be one of low, medium, high or empty, got %q", c.Thinking)
	}
	if c.ToolConcurrency < 1 {
		add("ToolConcurrency", "must be positive, got %d", c.ToolConcurrency)
	}
	if c.ToolTimeout < 0 {
		add("ToolTimeout", "must not be negative, got %s", c.ToolTimeout)
	}
	if c.LoopGuard.Warn < 1 {
		add("LoopGuard.Warn", "must be positive, got %d", c.LoopGuard.Warn)
	}
	if c.LoopGuard.Critical <= c.LoopGuard.Warn {
		add("LoopGuard.Critical", "must exceed LoopGuard.Warn (%d), got %d", c.LoopGuard.Warn, c.LoopGuard.Critical)
	}
	p := c.Compaction
	// Written so that NaN fails too: a NaN ratio would never trigger.
	if !(p.TriggerRatio > 0 && p.TriggerRatio <= 1) {
		add("Compaction.TriggerRatio", "must be in (0, 1], got %g", p.TriggerRatio)
	}
	if p.KeepRecent < 1 {
		add("Compaction.KeepRecent", "must be positive, got %d", p.KeepRecent)
	}
	if p.ContextWindow < 1 {
		add("Compaction.ContextWindow", "must be positive, got %d", p.ContextWindow)
	}
	if p.MaxMessages < 0 {
		add("Compaction.MaxMessages", "must not be negative, got %d", p.MaxMessages)
	}
	if p.MaxChars < 0 {
		add("Compaction.MaxChars", "must not be negative, got %d", p.MaxChars)
	}
	if c.Revision < 0 || c.Revision > CurrentRevision {
		add("Revision", "must be in 0..%d, got %d", CurrentRevision, c.Revision)
	}
	switch c.FailedRuns {
	case FailedRunsDefault, FailedRunsExclude, FailedRunsKeep:
	default:
		add("FailedRuns", "must be exclude, keep or empty, got %q", c.FailedRuns)
	}
	bad = append(bad, c.Sampling.fieldErrors(c.offeredNames())...)
	seen := map[string]bool{}
	for i, t := range c.Tools {
		field := fmt.Sprintf("Tools[%d]", i)
		switch {
		case t.Name == "":
			add(field+".Name", "is empty")
		case !ValidToolName(t.Name):
			add(field+".Name", "%q must match [A-Za-z0-9_-]{1,64}", t.Name)
		case seen[t.Name]:
			add(field+".Name", "%q is registered twice", t.Name)
		}
		seen[t.Name] = true
		if t.Timeout < 0 {
			add(field+".Timeout", "must not be negative, got %s", t.Timeout)
		}
	}
	bad = append(bad, c.delegateErrors(seen)...)
	if c.Output != nil {
		bad = append(bad, c.Output.fieldErrors()...)
	}
	if len(bad) == 0 {
		return nil
	}
	return &RunError{Kind: KindConfig, Message: "invalid agent config", Fields: bad}
}

// ValidToolName reports whether name is a tool name every provider accepts.
func ValidToolName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, r := range name {
		ok := r == '_' || r == '-' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}
