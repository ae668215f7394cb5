package store

import (
	"io"
	"testing"
)

type plainLock struct{}

func (plainLock) Close() error { return nil }

var _ io.Closer = plainLock{}

var ran bool

func markRan() { ran = true }

// A lease that cannot be lost is watched for free: every agent on the
// memory or file store watches its lease, and nothing can come of it.
func TestWatchingALeaseThatCannotBeLostCostsNothing(t *testing.T) {
	l := NewLease(plainLock{})
	allocs := testing.AllocsPerRun(100, func() {
		stop := l.AfterLost(markRan)
		if !stop() {
			t.Error("stop says f started, on a lease that cannot be lost")
		}
	})
	if ran {
		t.Error("f ran for a lease that cannot be lost")
	}
	if allocs != 0 {
		t.Errorf("watching a lease that cannot be lost allocates %v times, want 0", allocs)
	}
}
