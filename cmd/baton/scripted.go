package main

import (
	_ "embed"
	"fmt"

	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
)

// demoScript is the model's side of baton demo.
//
//go:embed testdata/demo.json
var demoScript []byte

const (
	demoPrompt = "Look around the workspace, write a short poem to poem.txt, read it back and tell me what it says."
	demoNotes  = "This is baton's demo workspace. The model may list, read and write files here.\n"
)

func openScripted(p providerSpec) (turn.Provider, string, error) {
	if p.script == "" {
		return nil, "", &usageError{msg: "--provider scripted needs --script FILE (a provider/scripted JSON script)"}
	}
	s, err := scripted.Load(p.script)
	if err != nil {
		return nil, "", fmt.Errorf("--script: %w", err)
	}
	return s, orDefault(p.model, "scripted"), nil
}
