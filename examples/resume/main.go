package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

const session = "deploy-1"

type deployArgs struct {
	Version string `json:"version"`
}

func main() {
	if dir := os.Getenv("RESUME_EXAMPLE_CHILD"); dir != "" {
		child(dir)
		return
	}
	dir, err := os.MkdirTemp("", "baton-resume-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), "RESUME_EXAMPLE_CHILD="+dir)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	err = cmd.Run()
	fmt.Printf("child process died: %v\n", err)
	parent(dir)
}

func tools(crash bool) *dispatch.ToolBox {
	deploy := dispatch.MustFunc("deploy", "Deploy a version.", func(ctx context.Context, a deployArgs) (string, error) {
		if crash {
			fmt.Println("child: deploying", a.Version, "... and crashing")
			os.Exit(3)
		}
		return "deployed " + a.Version, nil
	})
	box, err := dispatch.NewToolBox(deploy)
	if err != nil {
		log.Fatal(err)
	}
	return box
}

func child(dir string) {
	st, err := store.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	model := scripted.New(scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "deploy", Arguments: `{"version":"v2"}`}}})
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: tools(true)}, Env: conductor.Env{Store: st, SessionID: session}})
	if err != nil {
		log.Fatal(err)
	}
	_, err = agent.Submit(context.Background(), conductor.Text("Deploy v2."))
	log.Fatalf("child: the tool should have crashed the process, got %v", err)
}

func parent(dir string) {
	st, err := store.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	model := scripted.New(scripted.Reply{Text: "The deploy was interrupted; check the servers before retrying."})
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: tools(false)}, Env: conductor.Env{Store: st, SessionID: session}})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	snap, err := agent.Resume(context.Background(), session)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range snap.History.Turns() {
		for _, r := range t.Results() {
			fmt.Printf("resumed: %s got %q\n", r.Name, r.Content)
		}
	}
	last, _ := snap.History.Last()
	fmt.Printf("resumed run %s: %s\n", snap.Phase, last.Text())
}
