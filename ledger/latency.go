package ledger

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/batonrt/baton/contract"
)

// CallLatency is how long one tool call ran, from its tool_started event
// to its tool_result event, by the timestamps the events carry.
type CallLatency struct {
	CallID   string
	Name     string
	Duration time.Duration
}

// ToolStat summarises one tool's calls.
type ToolStat struct {
	Name  string
	Calls int
	Total time.Duration
	Max   time.Duration
}

// Mean is the average call duration.
func (s ToolStat) Mean() time.Duration {
	if s.Calls == 0 {
		return 0
	}
	return s.Total / time.Duration(s.Calls)
}

// ToolLatency measures tool calls. A result without a start (a denied or
// skipped call never runs) is not counted.
type ToolLatency struct {
	mu      sync.Mutex
	started map[string]startedCall
	done    []CallLatency
}

type startedCall struct {
	name string
	at   contract.Timestamp
}

// NewToolLatency returns an empty meter.
func NewToolLatency() *ToolLatency {
	return &ToolLatency{started: map[string]startedCall{}}
}

// Observe folds one event in; it is a subscriber fn.
func (l *ToolLatency) Observe(ev contract.RunEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A delegated run may reuse its parent's call ids: calls are keyed by
	// their subflow path too.
	key := func(id string) string { return strings.Join(ev.Subflow, "/") + "/" + id }
	switch ev.Kind {
	case contract.EvToolStarted:
		id, name := callOf(ev)
		if id != "" {
			l.started[key(id)] = startedCall{name: name, at: ev.At}
		}
	case contract.EvToolResult:
		id, name := callOf(ev)
		s, ok := l.started[key(id)]
		if !ok {
			return
		}
		delete(l.started, key(id))
		if name == "" {
			name = s.name
		}
		l.done = append(l.done, CallLatency{CallID: id, Name: name, Duration: time.Duration(ev.At - s.at)})
	}
}

func callOf(ev contract.RunEvent) (id, name string) {
	switch {
	case ev.Call != nil:
		return ev.Call.ID, ev.Call.Name
	case ev.Result != nil:
		return ev.Result.CallID, ev.Result.Name
	}
	return "", ""
}

// Calls returns every measured call in completion order.
func (l *ToolLatency) Calls() []CallLatency {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.done)
}

// ByTool summarises the calls per tool, sorted by name.
func (l *ToolLatency) ByTool() []ToolStat {
	stats := map[string]*ToolStat{}
	for _, c := range l.Calls() {
		s := stats[c.Name]
		if s == nil {
			s = &ToolStat{Name: c.Name}
			stats[c.Name] = s
		}
		s.Calls++
		s.Total += c.Duration
		s.Max = max(s.Max, c.Duration)
	}
	out := make([]ToolStat, 0, len(stats))
	for _, s := range stats {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b ToolStat) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out
}
