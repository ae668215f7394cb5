package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"sync"
)

// appendConfig writes c as encoding/json does. Every run's submit record
// holds its config: the fields every config has are written here, and
// the rarer nested ones (delegates, sampling, an output schema) are left
// to encoding/json.
func appendConfig(b []byte, c *AgentConfig) ([]byte, error) {
	b = append(b, `{"model":`...)
	b = appendJSONString(b, c.Model)
	if c.System != "" {
		b = append(b, `,"system":`...)
		b = appendJSONString(b, c.System)
	}
	var err error
	if len(c.Tools) > 0 {
		b = append(b, `,"tools":`...)
		if b, err = appendTools(b, c.Tools); err != nil {
			return b, err
		}
	}
	b = appendIntField(b, `,"max_output_tokens":`, int64(c.MaxOutputTokens))
	if c.Thinking != "" {
		b = append(b, `,"thinking":`...)
		b = appendJSONString(b, string(c.Thinking))
	}
	if c.Compaction != (CompactionPolicy{}) {
		b = append(b, `,"compaction":`...)
		if b, err = appendCompaction(b, &c.Compaction); err != nil {
			return b, err
		}
	}
	b = appendIntField(b, `,"max_turns":`, int64(c.MaxTurns))
	if c.LoopGuard != (LoopGuard{}) {
		b = append(b, `,"loop_guard":{`...)
		comma := false
		if c.LoopGuard.Warn != 0 {
			b = append(b, `"warn":`...)
			b = strconv.AppendInt(b, int64(c.LoopGuard.Warn), 10)
			comma = true
		}
		if c.LoopGuard.Critical != 0 {
			if comma {
				b = append(b, ',')
			}
			b = append(b, `"critical":`...)
			b = strconv.AppendInt(b, int64(c.LoopGuard.Critical), 10)
		}
		b = append(b, '}')
	}
	b = appendIntField(b, `,"tool_concurrency":`, int64(c.ToolConcurrency))
	b = appendIntField(b, `,"tool_timeout":`, int64(c.ToolTimeout))
	if len(c.Delegates) > 0 {
		if b, err = appendMarshalled(b, `,"delegates":`, c.Delegates); err != nil {
			return b, err
		}
	}
	b = appendIntField(b, `,"max_delegation_depth":`, int64(c.MaxDelegationDepth))
	b = appendIntField(b, `,"depth":`, int64(c.Depth))
	if !c.Sampling.zero() {
		if b, err = appendMarshalled(b, `,"sampling":`, c.Sampling); err != nil {
			return b, err
		}
	}
	if c.FailedRuns != "" {
		b = append(b, `,"failed_runs":`...)
		b = appendJSONString(b, string(c.FailedRuns))
	}
	b = appendIntField(b, `,"revision":`, int64(c.Revision))
	if c.Output != nil {
		if b, err = appendMarshalled(b, `,"output":`, c.Output); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// zero is what omitzero omits.
func (s *Sampling) zero() bool {
	return s.Temperature == nil && s.TopP == nil && s.Stop == nil && s.Seed == nil && s.ParallelToolCalls == nil && s.ToolChoice == ""
}

func appendCompaction(b []byte, p *CompactionPolicy) ([]byte, error) {
	start := len(b)
	b = append(b, '{')
	if p.Disabled {
		b = append(b, `,"disabled":true`...)
	}
	if p.TriggerRatio != 0 {
		b = append(b, `,"trigger_ratio":`...)
		var err error
		if b, err = appendFloat(b, p.TriggerRatio); err != nil {
			return b, err
		}
	}
	b = appendIntField(b, `,"keep_recent":`, int64(p.KeepRecent))
	b = appendIntField(b, `,"context_window":`, int64(p.ContextWindow))
	b = appendIntField(b, `,"max_messages":`, int64(p.MaxMessages))
	b = appendIntField(b, `,"max_chars":`, int64(p.MaxChars))
	if len(b) > start+1 {
		// Every field above was written after a comma: drop the first.
		b = append(b[:start+1], b[start+2:]...)
	}
	return append(b, '}'), nil
}

// appendTools writes a non-empty list of descriptors.
func appendTools(b []byte, tools []ToolDescriptor) ([]byte, error) {
	b = append(b, '[')
	for i := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		d := &tools[i]
		b = append(b, `{"name":`...)
		b = appendJSONString(b, d.Name)
		if d.Description != "" {
			b = append(b, `,"description":`...)
			b = appendJSONString(b, d.Description)
		}
		if len(d.InputSchema) > 0 {
			b = append(b, `,"input_schema":`...)
			var err error
			if b, err = appendCompact(b, d.InputSchema); err != nil {
				return b, err
			}
		}
		b = appendBoolField(b, `,"idempotent":true`, d.Idempotent)
		b = appendBoolField(b, `,"needs_approval":true`, d.NeedsApproval)
		b = appendBoolField(b, `,"asks_human":true`, d.AsksHuman)
		b = appendBoolField(b, `,"sequential":true`, d.Sequential)
		b = appendIntField(b, `,"timeout":`, int64(d.Timeout))
		if d.Delegate != "" {
			b = append(b, `,"delegate":`...)
			b = appendJSONString(b, d.Delegate)
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// appendCompact writes raw JSON without its insignificant space, as
// encoding/json writes a json.RawMessage. Schemas already compact are
// remembered, so the submit record of every run does not scan its tools'
// schemas again.
func appendCompact(b []byte, raw []byte) ([]byte, error) {
	if compactSchemas.has(raw) {
		return append(b, raw...), nil
	}
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, raw); err != nil {
		return b, err
	}
	out := buf.Bytes()
	if bytes.Equal(out[len(b):], raw) {
		compactSchemas.add(raw)
	}
	return out, nil
}

// compactSchemas holds JSON values known to be valid and compact. It
// stops growing at a bound, and keeps no large value: a host making
// schemas without end gets no help from it, and keeps no more memory
// for it than a few hundred small schemas take.
var compactSchemas = knownCompact{known: map[string]struct{}{}}

type knownCompact struct {
	mu    sync.RWMutex
	known map[string]struct{}
}

const (
	knownCompactBound = 256
	knownCompactLen   = 8 << 10
)

func (k *knownCompact) has(raw []byte) bool {
	k.mu.RLock()
	defer k.mu.RUnlock()
	_, ok := k.known[string(raw)]
	return ok
}

func (k *knownCompact) add(raw []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.known) < knownCompactBound && len(raw) <= knownCompactLen {
		k.known[string(raw)] = struct{}{}
	}
}

func appendIntField(b []byte, field string, v int64) []byte {
	if v == 0 {
		return b
	}
	return strconv.AppendInt(append(b, field...), v, 10)
}

func appendBoolField(b []byte, field string, v bool) []byte {
	if !v {
		return b
	}
	return append(b, field...)
}

var errNotFinite = errors.New("contract: a number is not finite")

// appendFloat writes f as encoding/json writes a float64.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, errNotFinite
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
