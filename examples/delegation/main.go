package main

import (
	"context"
	"fmt"
	"log"
	"strings"
	"sync"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

type lookupArgs struct {
	Topic string `json:"topic"`
}

func lookup() dispatch.Tool {
	return dispatch.MustFunc("lookup", "Look a topic up.", func(ctx context.Context, a lookupArgs) (string, error) {
		return a.Topic + ": fjords, 1,190 km of coastline", nil
	}, dispatch.Idempotent())
}

var config = contract.AgentConfig{
	Model:  "scripted",
	System: "editor",
	Delegates: []contract.Delegate{
		{Name: "researcher", Description: "Finds facts; give it a topic.", Config: contract.AgentConfig{
			Model: "scripted", System: "researcher", Tools: []contract.ToolDescriptor{{Name: "lookup"}},
		}},
		{Name: "writer", Description: "Writes a line of verse on a theme.", Config: contract.AgentConfig{
			Model: "scripted", System: "writer",
		}},
	},
}

// model answers each agent by its system prompt, from the request alone:
// a scripted stand-in for real models.
func model() *scripted.Script {
	return scripted.Func(func(req contract.ModelRequest) scripted.Reply {
		turns := req.History.Turns()
		last := turns[len(turns)-1]
		switch req.System {
		case "editor":
			if last.Role != contract.RoleTool {
				return scripted.Reply{Calls: []scripted.Call{
					{ID: "d1", Name: "delegate_researcher", Arguments: `{"task":"Norway"}`},
					{ID: "d2", Name: "delegate_writer", Arguments: `{"task":"the sea"}`},
				}}
			}
			var parts []string
			for _, r := range last.Results() {
				parts = append(parts, r.Content)
			}
			return scripted.Reply{Text: "Brief: " + strings.Join(parts, " / ")}
		case "researcher":
			if last.Role != contract.RoleTool {
				return scripted.Reply{Calls: []scripted.Call{{ID: "l1", Name: "lookup", Arguments: `{"topic":"` + last.Text() + `"}`}}}
			}
			return scripted.Reply{Text: last.Results()[0].Content}
		}
		return scripted.Reply{Text: "Grey waves fold on " + last.Text() + "."}
	})
}

// run asks the editor for a brief and returns the session id and what the
// children did, by subflow path, in the order each did it.
func run(ctx context.Context, st store.Store) (string, string, map[string][]string, error) {
	tools, err := dispatch.NewToolBox(lookup())
	if err != nil {
		return "", "", nil, err
	}
	agent, err := conductor.CreateAgent(config, conductor.Deps{Model: conductor.Model{Provider: model()}, Tools: conductor.Tools{Box: tools}, Env: conductor.Env{Store: st, SessionID: "brief"}})
	if err != nil {
		return "", "", nil, err
	}
	defer agent.Close()
	var mu sync.Mutex
	work := map[string][]string{}
	agent.Subscribe(func(ev contract.RunEvent) {
		if len(ev.Subflow) == 0 || ev.Delta != 0 {
			return
		}
		line := string(ev.Kind)
		if ev.Call != nil {
			line += " " + ev.Call.Name
		}
		if ev.Result != nil {
			line += ": " + ev.Result.Content
		}
		mu.Lock()
		path := strings.Join(ev.Subflow, "/")
		work[path] = append(work[path], line)
		mu.Unlock()
	})
	snap, err := agent.Submit(ctx, conductor.Text("Write a brief about Norway."))
	if err != nil {
		return "", "", nil, err
	}
	// Subscribers run on their own goroutines: wait until they have
	// seen every event of the run.
	if err := agent.Flush(ctx); err != nil {
		return "", "", nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	return "brief", finalText(snap), work, nil
}

func finalText(s contract.RunSnapshot) string {
	turns := s.History.Turns()
	return turns[len(turns)-1].Text()
}

// graph prints the session's chain, newest first, with each linked child
// chain indented under the node that links it.
func graph(ctx context.Context, st store.Store, h store.Hash, indent string, b *strings.Builder) error {
	for n, err := range st.Walk(ctx, h) {
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "%sstep %d %s\n", indent, n.Record.Step, n.Record.Signal.SignalKind())
		for _, l := range n.Links {
			if err := graph(ctx, st, l, indent+"    ", b); err != nil {
				return err
			}
		}
	}
	return nil
}

func main() {
	ctx := context.Background()
	st := store.NewMemory()
	id, answer, work, err := run(ctx, st)
	if err != nil {
		log.Fatal(err)
	}
	for _, path := range []string{"d1", "d2"} {
		fmt.Printf("child %s:\n", path)
		for _, line := range work[path] {
			fmt.Println("   ", line)
		}
	}
	fmt.Println(answer)
	head, err := st.Head(ctx, id)
	if err != nil {
		log.Fatal(err)
	}
	var b strings.Builder
	if err := graph(ctx, st, head, "", &b); err != nil {
		log.Fatal(err)
	}
	fmt.Print(b.String())
	if err := store.Replay(ctx, st, cadence.New(config), id); err != nil {
		log.Fatal(err)
	}
	fmt.Println("replayed the parent and both children: identical")
}
