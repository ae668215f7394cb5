package contract

import (
	"encoding/json"
	"fmt"
)

// DelegatePrefix starts the tool name a delegate is offered under.
const DelegatePrefix = "delegate_"

// DefaultMaxDelegationDepth bounds delegation when
// AgentConfig.MaxDelegationDepth is zero; MaxDelegationDepthLimit bounds
// any setting, so the cap cannot be switched off.
const (
	DefaultMaxDelegationDepth = 3
	MaxDelegationDepthLimit   = 16
)

// MaxDelegateTree bounds the delegates a config's delegation tree holds
// once unrolled down to its depth cap, as CreateAgent resolves it and
// every run's start record holds it. Delegates that delegate to each
// other (a cycle, possible in Go and in the command line's agents file)
// unroll into fan-out^depth configs: three under the depth limit are 43
// million. Real crews are a few agents a few levels deep, tens of
// delegates; this bound lets two agents delegate to each other eleven
// levels deep, or eight to each other at the default depth, and keeps a
// start record to a few thousand configs.
const MaxDelegateTree = 4096

// DelegateTreeError says why c's delegation tree is too large to unroll
// (see MaxDelegateTree), nil when it is not. It counts the tree as its
// runs would unroll it and stops once past the bound, so the count costs
// no more than the bound, whatever the depth.
func (c AgentConfig) DelegateTreeError() *FieldError {
	if c.Depth < 0 || c.DelegationDepthLimit() > MaxDelegationDepthLimit {
		return nil // Validate refuses the depth or the cap itself.
	}
	left := MaxDelegateTree
	if c.delegatesFit(&left) {
		return nil
	}
	return &FieldError{Field: "Delegates", Reason: fmt.Sprintf("unroll to more than %d delegates down to the depth cap %d (MaxDelegationDepth): lower it, or delegate in fewer directions", MaxDelegateTree, c.DelegationDepthLimit())}
}

// delegatesFit counts c's delegation tree off left, reporting false once
// it runs out.
func (c AgentConfig) delegatesFit(left *int) bool {
	if !c.OffersDelegates() {
		return true
	}
	for _, d := range c.Delegates {
		if *left--; *left < 0 || !c.ChildConfig(d).delegatesFit(left) {
			return false
		}
	}
	return true
}

// Delegate is a child agent the parent may hand work to. The model sees it
// as the tool DelegatePrefix+Name taking {"task": string}; the runtime runs
// the task as a child run with Config, whose final answer is the call's
// result.
type Delegate struct {
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	Config      AgentConfig `json:"config"`
	// InputSchema, when set, is a JSON Schema object whose properties are
	// offered beside "task" (its required ones required too); what the
	// model sends in them reaches the child after the task, as JSON.
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

// ToolName is the name the delegate is offered under.
func (d Delegate) ToolName() string { return DelegatePrefix + d.Name }

// delegateSchema is the input every delegate tool takes.
var delegateSchema = json.RawMessage(`{"type":"object","properties":{"task":{"type":"string","description":"the task for the delegate, self-contained: it sees nothing else of this conversation"}},"required":["task"]}`)

// Descriptor is the tool the delegate is offered as. A child run resumes
// from its own records, so the call is idempotent.
func (d Delegate) Descriptor() ToolDescriptor {
	desc := d.Description
	if desc == "" {
		desc = "Hand a task to the " + d.Name + " agent and get its final answer."
	}
	schema := delegateSchema
	if extra, ok := d.extraInput(); ok {
		schema = extra
	}
	return ToolDescriptor{Name: d.ToolName(), Description: desc, InputSchema: schema, Idempotent: true, Delegate: d.Name}
}

// inputSchema is the part of a JSON Schema a delegate's typed input uses.
type inputSchema struct {
	Type       string                     `json:"type,omitempty"`
	Properties map[string]json.RawMessage `json:"properties,omitempty"`
	Required   []string                   `json:"required,omitempty"`
}

// extraInput merges InputSchema's properties into the task schema; false
// when there is none to merge.
func (d Delegate) extraInput() (json.RawMessage, bool) {
	if len(d.InputSchema) == 0 {
		return nil, false
	}
	var base, extra inputSchema
	if json.Unmarshal(delegateSchema, &base) != nil || json.Unmarshal(d.InputSchema, &extra) != nil || len(extra.Properties) == 0 {
		return nil, false
	}
	for k, v := range extra.Properties {
		if k != "task" {
			base.Properties[k] = v
		}
	}
	for _, r := range extra.Required {
		if r != "task" {
			base.Required = append(base.Required, r)
		}
	}
	b, err := json.Marshal(base)
	return b, err == nil
}

// inputSchemaError says what is wrong with a delegate's InputSchema.
func inputSchemaError(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s inputSchema
	if err := json.Unmarshal(raw, &s); err != nil {
		return "must be a JSON Schema object: " + err.Error()
	}
	if s.Type != "" && s.Type != "object" {
		return fmt.Sprintf("must have type object, got %q", s.Type)
	}
	if _, ok := s.Properties["task"]; ok {
		return `must not define "task", which every delegate takes`
	}
	for _, r := range s.Required {
		if _, ok := s.Properties[r]; !ok {
			return fmt.Sprintf("requires %q, which it does not define", r)
		}
	}
	return ""
}

// DelegationDepthLimit is the effective MaxDelegationDepth.
func (c AgentConfig) DelegationDepthLimit() int {
	if c.MaxDelegationDepth == 0 {
		return DefaultMaxDelegationDepth
	}
	return c.MaxDelegationDepth
}

// OffersDelegates reports whether this agent's delegates are offered: not
// at or past the depth limit.
func (c AgentConfig) OffersDelegates() bool {
	return len(c.Delegates) > 0 && c.Depth < c.DelegationDepthLimit()
}

// ChildConfig is the configuration a delegate's run starts under: its own,
// one level deeper, under the tighter of the two depth limits.
func (c AgentConfig) ChildConfig(d Delegate) AgentConfig {
	child := d.Config
	limit := c.DelegationDepthLimit()
	if child.MaxDelegationDepth == 0 || child.MaxDelegationDepth > limit {
		child.MaxDelegationDepth = limit
	}
	child.Depth = c.Depth + 1
	return child
}

// DelegateNamed returns the delegate with the name.
func (c AgentConfig) DelegateNamed(name string) (Delegate, bool) {
	for _, d := range c.Delegates {
		if d.Name == name {
			return d, true
		}
	}
	return Delegate{}, false
}

// delegateErrors checks the delegation fields; tools holds the names of
// the agent's tools, which delegate tools must not collide with.
func (c *AgentConfig) delegateErrors(tools map[string]bool) []FieldError {
	if c.MaxDelegationDepth < 0 || c.MaxDelegationDepth > MaxDelegationDepthLimit {
		return []FieldError{{Field: "MaxDelegationDepth", Reason: fmt.Sprintf("must be in 0..%d (0 means %d), got %d", MaxDelegationDepthLimit, DefaultMaxDelegationDepth, c.MaxDelegationDepth)}}
	}
	if c.Depth < 0 {
		return []FieldError{{Field: "Depth", Reason: fmt.Sprintf("must not be negative, got %d", c.Depth)}}
	}
	if len(c.Delegates) == 0 || !c.OffersDelegates() {
		// At the depth limit delegates are never offered, so what is
		// declared below it never runs: a cycle of delegates ends here.
		return nil
	}
	if fe := c.DelegateTreeError(); fe != nil {
		// Checking each delegate would walk the tree it refuses.
		return []FieldError{*fe}
	}
	return c.delegateListErrors(tools)
}

// delegateListErrors checks each delegate, and its config as its child
// runs under it. Not inlined: the copies of configs it makes would take
// room in the frame of every CreateAgent.
//
//go:noinline
func (c *AgentConfig) delegateListErrors(tools map[string]bool) []FieldError {
	var bad []FieldError
	add := func(field, format string, args ...any) {
		bad = append(bad, FieldError{Field: field, Reason: fmt.Sprintf(format, args...)})
	}
	names := map[string]bool{}
	for i, d := range c.Delegates {
		field := fmt.Sprintf("Delegates[%d]", i)
		switch {
		case d.Name == "":
			add(field+".Name", "is empty")
			continue
		case !ValidToolName(d.ToolName()):
			add(field+".Name", "%q must match [A-Za-z0-9_-]{1,%d}", d.Name, 64-len(DelegatePrefix))
			continue
		case names[d.Name]:
			add(field+".Name", "%q is declared twice", d.Name)
			continue
		case tools[d.ToolName()]:
			add(field+".Name", "its tool %q collides with a tool of the same name", d.ToolName())
			continue
		}
		names[d.Name] = true
		if why := inputSchemaError(d.InputSchema); why != "" {
			add(field+".InputSchema", "%s", why)
		}
		if err := c.ChildConfig(d).Validate(); err != nil {
			re, _ := AsRunError(err)
			for _, f := range re.Fields {
				bad = append(bad, FieldError{Field: field + ".Config." + f.Field, Reason: f.Reason})
			}
		}
	}
	return bad
}
