package dispatch

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/batonrt/baton/contract"
)

// ToolBox holds tools by name. A box made by With is a scope over its
// parent: its own tools shadow the parent's tools of the same name, and
// tools registered in the parent later are seen through it. It is safe
// for concurrent use.
type ToolBox struct {
	mu     sync.RWMutex
	tools  map[string]Tool
	parent *ToolBox
}

// NewToolBox returns a box holding tools. It fails on a nil tool, an
// invalid name, or two tools of one name.
func NewToolBox(tools ...Tool) (*ToolBox, error) {
	b := &ToolBox{tools: make(map[string]Tool, len(tools))}
	for _, t := range tools {
		if err := b.Register(t); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// MustToolBox is NewToolBox for tools fixed at init time, where a bad
// tool is a programming error; it panics on error, so the error cannot be
// dropped and leave an agent without tools.
func MustToolBox(tools ...Tool) *ToolBox {
	b, err := NewToolBox(tools...)
	if err != nil {
		panic(err)
	}
	return b
}

// Register adds t. It fails if t is nil, its name is invalid, or this box
// (not a parent) already holds the name.
func (b *ToolBox) Register(t Tool) error {
	if t == nil {
		return fmt.Errorf("%w: nil tool", ErrInvalidTool)
	}
	d := t.Descriptor()
	if err := checkDescriptor(d); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tools == nil {
		b.tools = make(map[string]Tool)
	}
	if _, dup := b.tools[d.Name]; dup {
		return fmt.Errorf("%w %q", ErrDuplicateTool, d.Name)
	}
	b.tools[d.Name] = t
	return nil
}

// Lookup returns the tool named name, looking in this scope first and
// then outwards.
func (b *ToolBox) Lookup(name string) (Tool, bool) {
	for s := b; s != nil; s = s.parent {
		s.mu.RLock()
		t, ok := s.tools[name]
		s.mu.RUnlock()
		if ok {
			return t, true
		}
	}
	return nil, false
}

// Descriptors returns the descriptor of every visible tool, shadowed ones
// left out, sorted by name.
func (b *ToolBox) Descriptors() []contract.ToolDescriptor {
	seen := make(map[string]contract.ToolDescriptor)
	for s := b; s != nil; s = s.parent {
		s.mu.RLock()
		for name, t := range s.tools {
			if _, shadowed := seen[name]; !shadowed {
				seen[name] = t.Descriptor()
			}
		}
		s.mu.RUnlock()
	}
	out := make([]contract.ToolDescriptor, 0, len(seen))
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		out = append(out, seen[name])
	}
	return out
}

// With returns a scope over b holding tools, which shadow b's tools of the
// same name; b is unchanged. It fails as NewToolBox does.
func (b *ToolBox) With(tools ...Tool) (*ToolBox, error) {
	s, err := NewToolBox(tools...)
	if err != nil {
		return nil, err
	}
	s.parent = b
	return s, nil
}
