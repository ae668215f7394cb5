package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func namedTool(t testing.TB, name, desc string) Tool {
	t.Helper()
	tl, err := NewTool(contract.ToolDescriptor{Name: name, Description: desc}, text(desc))
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestToolBoxScopes(t *testing.T) {
	agent, err := NewToolBox(namedTool(t, "search", "agent search"), namedTool(t, "read", "agent read"))
	if err != nil {
		t.Fatal(err)
	}
	scope, err := agent.With(namedTool(t, "search", "submit search"), namedTool(t, "write", "submit write"))
	if err != nil {
		t.Fatal(err)
	}
	descs := func(b *ToolBox) []string {
		var out []string
		for _, d := range b.Descriptors() {
			out = append(out, d.Name+": "+d.Description)
		}
		return out
	}
	if diff := cmp.Diff([]string{"read: agent read", "search: submit search", "write: submit write"}, descs(scope)); diff != "" {
		t.Errorf("scope mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"read: agent read", "search: agent search"}, descs(agent)); diff != "" {
		t.Errorf("agent box changed (-want +got):\n%s", diff)
	}
	tests := []struct {
		box    *ToolBox
		name   string
		want   string
		wantOK bool
	}{
		{scope, "search", "submit search", true},
		{scope, "read", "agent read", true},
		{scope, "write", "submit write", true},
		{agent, "search", "agent search", true},
		{agent, "write", "", false},
		{scope, "nope", "", false},
	}
	for _, tt := range tests {
		tl, ok := tt.box.Lookup(tt.name)
		got := ""
		if ok {
			out, err := tl.Call(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			got = out.Content
		}
		if ok != tt.wantOK || got != tt.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestToolBoxRefusals(t *testing.T) {
	box, err := NewToolBox(namedTool(t, "a", ""))
	if err != nil {
		t.Fatal(err)
	}
	bad := &badNameTool{}
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"register duplicate", box.Register(namedTool(t, "a", "")), ErrDuplicateTool},
		{"register nil", box.Register(nil), ErrInvalidTool},
		{"register bad name", box.Register(bad), ErrInvalidTool},
		{"new duplicate", second(NewToolBox(namedTool(t, "x", ""), namedTool(t, "x", ""))), ErrDuplicateTool},
		{"with duplicate", second(box.With(namedTool(t, "x", ""), namedTool(t, "x", ""))), ErrDuplicateTool},
		{"with nil", second(box.With(nil)), ErrInvalidTool},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.err, tt.want)
		}
	}
	var zero ToolBox
	if err := zero.Register(namedTool(t, "z", "")); err != nil {
		t.Errorf("zero ToolBox Register: %v", err)
	}
	if _, ok := zero.Lookup("z"); !ok {
		t.Error("zero ToolBox lost its tool")
	}
}

func second[T any](_ T, err error) error { return err }

type badNameTool struct{}

func (badNameTool) Descriptor() contract.ToolDescriptor {
	return contract.ToolDescriptor{Name: "has space"}
}

func (badNameTool) Call(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
	return contract.ToolOutcome{}, nil
}
