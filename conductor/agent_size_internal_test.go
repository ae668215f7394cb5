package conductor

import (
	"testing"
	"unsafe"

	"github.com/batonrt/baton/contract"
)

// TestAgentKeepsOneSnapshot checks that an agent keeps its run's state
// once: the durable state is held apart only between a step and its
// persist (hold), in a pooled buffer, so 1,000 agents in flight do not
// keep 1,000 second snapshots. The bound is the 1,408-byte size class
// the struct is allocated in, with room for one snapshot and not two.
func TestAgentKeepsOneSnapshot(t *testing.T) {
	size, snap := unsafe.Sizeof(Agent{}), unsafe.Sizeof(contract.RunSnapshot{})
	if size > 1408 {
		t.Errorf("Agent is %d bytes, over 1408; a RunSnapshot is %d", size, snap)
	}
}
