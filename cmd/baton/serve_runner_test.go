package main

import (
	"context"
	"reflect"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/wire"
)

// TestServeRunnerOffersWhatTheWireProbes: the runner serve hands the
// wire for a thread does all that wire.AgentRunner's does: the wire
// probes the runner for each of these interfaces and, without one, falls
// back on a coarser way (a delegated run's decision offered to the whole
// tree by Approve, its open requests shown to no client that comes
// afresh, a thread waiting on a delegate's question kept past its idle
// time).
func TestServeRunnerOffersWhatTheWireProbes(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	r, err := openThread(ctx, st, scripted.New(), baseConfig("scripted"), nil, nil, conductor.Model{}, defaultNamespace+"t", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	agent, err := conductor.CreateAgent(baseConfig("scripted"), conductor.Deps{Model: conductor.Model{Provider: scripted.New()}})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	plain := wire.AgentRunner(agent)
	probed := []reflect.Type{
		reflect.TypeFor[wire.FailedRunner](),
		reflect.TypeFor[wire.SteerRunner](),
		reflect.TypeFor[wire.HumanRunner](),
		reflect.TypeFor[wire.SubflowAsker](),
		reflect.TypeFor[wire.SubflowAnswerer](),
		reflect.TypeFor[wire.SubflowApprover](),
		reflect.TypeFor[wire.CallsApprover](),
		reflect.TypeFor[wire.PeopleWaiter](),
		reflect.TypeFor[wire.Aborter](),
		reflect.TypeFor[interface{ Flush(context.Context) error }](),
	}
	for _, it := range probed {
		if !reflect.TypeOf(plain).Implements(it) {
			t.Errorf("wire.AgentRunner's runner is no %v: the list is out of date", it)
			continue
		}
		if !reflect.TypeOf(r).Implements(it) {
			t.Errorf("serve's runner (%T) is no %v", r, it)
		}
	}
}
