package store

import (
	"context"
	"slices"
	"testing"

	"github.com/batonrt/baton/contract"
)

// A session named by its own Append after a naming that failed keeps no
// stale error: a Head racing a Record into it (between naming and its
// check) would report that error on a healthy store.
func TestNamingThatSucceedsForgetsTheFailureBefore(t *testing.T) {
	ctx := context.Background()
	st := NewMemory()
	d := st.(*db)
	a := []contract.Record{
		{Step: 1, Signal: contract.Submitted{RunID: "r", At: 1}},
		{Step: 2, Signal: contract.ToolStarted{CallID: "c1", At: 2}},
		{Step: 3, Signal: contract.ToolStarted{CallID: "c2", At: 3}},
	}
	head, err := st.Append(ctx, "a", a[0], a[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Fork(ctx, "f", head); err != nil {
		t.Fatal(err)
	}
	if err := d.Record(ctx, "f", a[2]); err != nil {
		t.Fatal(err)
	}
	m := d.b.(*memBackend)
	whole := slices.Clone(m.objects[head])
	DamageObject(st, head)
	d.nameAll()
	s := d.session("f")
	if s.nameErr == nil {
		t.Fatal("naming the fork of a damaged head did not fail")
	}
	// The node repaired, the session's own Append names what waits.
	if err := m.Repair(ctx, []Object{{Hash: head, Bytes: whole}}); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	err = d.name("f", s)
	stale := s.nameErr
	s.mu.Unlock()
	if err != nil {
		t.Fatalf("naming after the repair: %v", err)
	}
	if stale != nil {
		t.Errorf("the session kept the error of the naming before: %v", stale)
	}
}
