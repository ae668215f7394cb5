package conductor

import (
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// offeredTools resolves a config's tools against the box, the one place
// tools are declared. A config names tools, and each is offered as the
// box describes it: whatever else an entry carries is replaced, so a
// schema is never written twice, and a config stored by an earlier
// release, its tools described as they were then, still loads. No names
// offers the whole box when all is set, and nothing otherwise.
func offeredTools(named []contract.ToolDescriptor, box *dispatch.ToolBox, field string, all bool) ([]contract.ToolDescriptor, []contract.FieldError) {
	if len(named) == 0 {
		if all {
			return box.Descriptors(), nil
		}
		return named, nil
	}
	var bad []contract.FieldError
	out := make([]contract.ToolDescriptor, len(named))
	for i, d := range named {
		out[i] = d
		if d.Name == "" {
			continue // the config's own validation names it
		}
		t, ok := box.Lookup(d.Name)
		if !ok {
			bad = append(bad, contract.FieldError{Field: fmt.Sprintf("%s[%d]", field, i), Reason: fmt.Sprintf("%q is not in Deps.Tools.Box", d.Name)})
			continue
		}
		out[i] = t.Descriptor()
	}
	return out, bad
}

func descriptors(tools []dispatch.Tool) []contract.ToolDescriptor {
	var out []contract.ToolDescriptor
	for _, t := range tools {
		out = append(out, t.Descriptor())
	}
	return out
}
