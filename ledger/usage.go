package ledger

import (
	"errors"
	"fmt"
	"sync"

	"github.com/batonrt/baton/contract"
)

// ErrUnknownModel is returned by UsageMeter.Cost when the price table has
// no entry for the meter's model.
var ErrUnknownModel = errors.New("ledger: no price for model")

// Price is what one model costs, in currency units per million tokens.
// Cached input tokens are part of the input count (as providers report
// them) and are charged at Cached instead of Input.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	Cached float64 `json:"cached"`
}

// PriceTable maps a model name to its price; the user supplies it, since
// prices change more often than releases.
type PriceTable map[string]Price

// Cost is what usage cost, split by token kind.
type Cost struct {
	Input  float64
	Cached float64
	Output float64
	Total  float64
}

// Of prices usage for model.
func (pt PriceTable) Of(model string, u contract.Usage) (Cost, error) {
	p, ok := pt[model]
	if !ok {
		return Cost{}, fmt.Errorf("%w %q", ErrUnknownModel, model)
	}
	cached := min(u.CachedTokens, u.InputTokens)
	c := Cost{
		Input:  float64(u.InputTokens-cached) * p.Input / 1e6,
		Cached: float64(cached) * p.Cached / 1e6,
		Output: float64(u.OutputTokens) * p.Output / 1e6,
	}
	c.Total = c.Input + c.Cached + c.Output
	return c, nil
}

// UsageMeter sums the usage that turn_completed events carry and prices
// it. Events name no model, so the meter is made for one. Delegated runs'
// turns count too, each under its own run id: the total is what the whole
// delegation tree spent.
type UsageMeter struct {
	model  string
	prices PriceTable

	mu    sync.Mutex
	total contract.Usage
	runs  map[string]contract.Usage
	order []string
}

// NewUsageMeter returns a meter for model priced by prices (which may be
// nil when only token counts are wanted).
func NewUsageMeter(model string, prices PriceTable) *UsageMeter {
	return &UsageMeter{model: model, prices: prices, runs: map[string]contract.Usage{}}
}

// Observe folds one event in; it is a subscriber fn.
func (m *UsageMeter) Observe(ev contract.RunEvent) {
	if ev.Kind != contract.EvTurnCompleted || ev.Usage == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total = m.total.Add(*ev.Usage)
	if _, ok := m.runs[ev.RunID]; !ok {
		m.order = append(m.order, ev.RunID)
	}
	m.runs[ev.RunID] = m.runs[ev.RunID].Add(*ev.Usage)
}

// Total returns the usage summed over every run seen.
func (m *UsageMeter) Total() contract.Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total
}

// Run returns one run's usage.
func (m *UsageMeter) Run(runID string) contract.Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[runID]
}

// Cost prices the total usage.
func (m *UsageMeter) Cost() (Cost, error) {
	return m.prices.Of(m.model, m.Total())
}
