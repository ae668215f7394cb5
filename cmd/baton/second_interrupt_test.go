package main

import (
	"context"
	"encoding/json"
	"iter"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// deafModel is a model call that ignores cancellation: it returns only
// when release closes.
type deafModel struct{ called, release chan struct{} }

func (m deafModel) Stream(context.Context, contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(func(turn.Chunk, error) bool) {
		close(m.called)
		<-m.release
	}
}

// TestSecondCtrlCExits: while a step ignores the abort Ctrl-C asked for,
// the next Ctrl-C ends baton with exit 130, saying so and how to go on
// with the session, which a later run resumes; without it only SIGKILL
// would stop the process. A model call deaf to the first Ctrl-C (an
// abort-now) is left at the second at once; a tool the first let run
// gets the abort-now at the second and a short grace to stop.
func TestSecondCtrlCExits(t *testing.T) {
	isolate(t)
	tests := []struct {
		name  string
		first string // what the first Ctrl-C says
		deaf  func(called, release chan struct{}) (turn.Provider, []dispatch.Tool)
	}{
		{"model call", "baton: stopping\n", func(called, release chan struct{}) (turn.Provider, []dispatch.Tool) {
			return deafModel{called: called, release: release}, nil
		}},
		{"tool", "baton: stopping after the running tools", func(called, release chan struct{}) (turn.Provider, []dispatch.Tool) {
			tool, err := dispatch.NewTool(contract.ToolDescriptor{Name: "wait", Description: "wait until released", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
				close(called)
				<-release
				return contract.ToolOutcome{Content: "done"}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			return scripted.New(scripted.Reply{Calls: []scripted.Call{{ID: "w1", Name: "wait", Arguments: "{}"}}}), []dispatch.Tool{tool}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called, release := make(chan struct{}), make(chan struct{})
			prov, tools := tt.deaf(called, release)
			interrupts := make(chan os.Signal, 2)
			stderr := newSyncBuffer()
			exited := make(chan int, 1)
			a := &app{stdout: newSyncBuffer(), stderr: stderr, interrupts: interrupts, exitNow: func(code int) { exited <- code }}
			spec := driveSpec{store: store.NewMemory(), provider: prov, tools: tools, model: "deaf", sessionID: "deaf-1", prompt: "hi"}
			driven := make(chan struct{})
			go func() { defer close(driven); _, _ = a.drive(context.Background(), spec) }()
			t.Cleanup(func() { close(release); <-driven })
			<-called
			interrupts <- os.Interrupt
			stderr.waitFor(t, tt.first)
			interrupts <- os.Interrupt
			select {
			case code := <-exited:
				if code != exitStopped {
					t.Errorf("exit %d, want %d", code, exitStopped)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("still running 10s after the second Ctrl-C:\n%s", stderr.String())
			}
			if want := `'baton run --session deaf-1 "..."'`; !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr does not say how to go on (%s):\n%s", want, stderr.String())
			}
		})
	}
}

// TestSecondCtrlCExitsACommand: a command other than a run whose work
// ignores the first Ctrl-C's cancel is left at the second, exit 130.
func TestSecondCtrlCExitsACommand(t *testing.T) {
	interrupts := make(chan os.Signal, 2)
	exited := make(chan int, 1)
	a := &app{stderr: newSyncBuffer(), interrupts: interrupts, exitNow: func(code int) { exited <- code }}
	ctx, stopped := a.stopOnInterrupt(context.Background())
	interrupts <- os.Interrupt
	<-ctx.Done()
	interrupts <- os.Interrupt
	select {
	case code := <-exited:
		if code != exitStopped {
			t.Errorf("exit %d, want %d", code, exitStopped)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10s after the second Ctrl-C")
	}
	if !stopped() {
		t.Error("stopped() says no Ctrl-C came")
	}
}
