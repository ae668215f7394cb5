package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
)

// agentsFile is what --agents reads: the delegates the run's agent may
// hand tasks to. Delegates name other agents of the file, so an agent may
// delegate to itself or to one that delegates back: such a cycle is
// unrolled down to the depth cap, where delegates are no longer offered.
type agentsFile struct {
	// MaxDepth caps delegation (default 3).
	MaxDepth int `json:"max_depth,omitempty"`
	// Delegates are the names the run's agent may delegate to; default
	// every agent of the file.
	Delegates []string    `json:"delegates,omitempty"`
	Agents    []agentSpec `json:"agents"`
}

// agentSpec is one delegate: its system prompt, tools (built-in tools by
// name), model (default the run's) and own delegates.
type agentSpec struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	System      string   `json:"system"`
	Model       string   `json:"model,omitempty"`
	Tools       []string `json:"tools,omitempty"`
	Delegates   []string `json:"delegates,omitempty"`
	MaxTurns    int      `json:"max_turns,omitempty"`
}

// loadAgents reads an agents file and returns the delegates of the run's
// agent and the depth cap. offered are the names of the tools the run's
// agent has, the only ones a delegate may name.
func loadAgents(path, model string, offered []string) ([]contract.Delegate, int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, fmt.Errorf("agents file: %w", err)
	}
	var f agentsFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, 0, fmt.Errorf("agents file %s: %w", path, err)
	}
	byName := map[string]agentSpec{}
	for i, a := range f.Agents {
		switch {
		case a.Name == "":
			return nil, 0, fmt.Errorf("agents file %s: agent %d has no name", path, i+1)
		case !contract.ValidToolName(contract.DelegatePrefix + a.Name):
			return nil, 0, fmt.Errorf("agents file %s: agent name %q must be letters, digits, _ or -", path, a.Name)
		case byName[a.Name].Name != "":
			return nil, 0, fmt.Errorf("agents file %s: agent %q is declared twice", path, a.Name)
		case a.MaxTurns < 0 || a.MaxTurns > contract.MaxMaxTurns:
			return nil, 0, fmt.Errorf("agents file %s: agent %q: max_turns must be in 1..%d (none means %d), got %d", path, a.Name, contract.MaxMaxTurns, contract.DefaultMaxTurns, a.MaxTurns)
		}
		// Named here, in the file's terms, rather than by CreateAgent as
		// a field path of the unrolled config.
		for _, t := range a.Tools {
			if !slices.Contains(offered, t) {
				return nil, 0, fmt.Errorf("agents file %s: agent %q: no tool %q among the run's: %s (--allow-shell adds shell, --allow-http http_get)", path, a.Name, t, strings.Join(offered, ", "))
			}
		}
		byName[a.Name] = a
	}
	roots := f.Delegates
	if roots == nil {
		for _, a := range f.Agents {
			roots = append(roots, a.Name)
		}
	}
	for _, a := range append([]agentSpec{{Name: "(the run's agent)", Delegates: roots}}, f.Agents...) {
		for _, d := range a.Delegates {
			if _, ok := byName[d]; !ok {
				return nil, 0, fmt.Errorf("agents file %s: %s delegates to %q, which the file does not declare", path, a.Name, d)
			}
		}
	}
	cfg := contract.AgentConfig{MaxDelegationDepth: f.MaxDepth}
	if err := cfg.Validate(); err != nil {
		if re, ok := contract.AsRunError(err); ok {
			for _, fe := range re.Fields {
				if fe.Field == "MaxDelegationDepth" {
					return nil, 0, fmt.Errorf("agents file %s: max_depth %s", path, fe.Reason)
				}
			}
		}
	}
	limit := cfg.DelegationDepthLimit()
	left := contract.MaxDelegateTree
	if !fits(roots, byName, 1, limit, &left) {
		return nil, 0, fmt.Errorf("agents file %s: the delegates unroll to more than %d agents down to max_depth %d: lower it, or let agents delegate in fewer directions", path, contract.MaxDelegateTree, limit)
	}
	return expand(roots, byName, model, 1, limit), f.MaxDepth, nil
}

// fits counts the delegates expand would build off left, reporting false
// once it runs out: agents that delegate to each other unroll to
// fan-out^depth of them, which must be refused before it is built.
func fits(names []string, byName map[string]agentSpec, depth, limit int, left *int) bool {
	for _, name := range names {
		if *left--; *left < 0 {
			return false
		}
		if depth < limit && !fits(byName[name].Delegates, byName, depth+1, limit, left) {
			return false
		}
	}
	return true
}

// expand builds the delegates named, as they run at depth: below the cap
// with their own delegates, at it without.
func expand(names []string, byName map[string]agentSpec, model string, depth, limit int) []contract.Delegate {
	var out []contract.Delegate
	for _, name := range names {
		a := byName[name]
		cfg := contract.AgentConfig{Model: a.Model, System: a.System, MaxTurns: a.MaxTurns}
		if cfg.Model == "" {
			cfg.Model = model
		}
		for _, t := range a.Tools {
			cfg.Tools = append(cfg.Tools, contract.ToolDescriptor{Name: t})
		}
		if depth < limit {
			cfg.Delegates = expand(a.Delegates, byName, model, depth+1, limit)
		}
		out = append(out, contract.Delegate{Name: name, Description: a.Description, Config: cfg})
	}
	return out
}
