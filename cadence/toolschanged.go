package cadence

import (
	"strconv"

	"github.com/batonrt/baton/contract"
)

// changesTools says a run in flight takes a new list of its own tools
// (revision 12 on).
func (t *transition) changesTools() bool {
	return t.s.Revision >= contract.RevisionToolsChanged
}

// onToolsChanged replaces the run's own tools with the list a tool source
// gives now. Nothing else moves: the next model call offers the new list,
// a reply is judged against the list it finds (so a call of a dropped
// tool is answered as unknown), and the calls already pending keep the
// descriptors they were made with, so a call made before the change
// runs, or finishes, as it was.
func (t *transition) onToolsChanged(sig contract.ToolsChanged) string {
	if !t.changesTools() {
		return "tools_changed: revision " + strconv.Itoa(t.s.Revision) + " keeps a run's tools until it ends"
	}
	for i, d := range sig.Tools {
		if !contract.ValidToolName(d.Name) {
			return "tools_changed: invalid tool name " + quote(d.Name)
		}
		for _, e := range sig.Tools[:i] {
			if e.Name == d.Name {
				return "tools_changed: two tools named " + quote(d.Name)
			}
		}
	}
	t.s.RunTools = sig.Tools
	return ""
}
