package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
	"github.com/batonrt/baton/provider/scripted"
)

func (a *app) demo(ctx context.Context, args []string) error {
	fs := a.newFlags("demo", "", "Play a scripted session that needs no key and no server: the script asks for\nreal built-in tools in a temporary workspace, the run streams here and is kept\nin the store, then it is replayed and verified byte for byte.")
	keep := fs.Bool("keep", false, "keep the temporary workspace instead of removing it")
	if _, err := fs.parse(args, 0, 0); err != nil {
		return err
	}
	st, dir, err := fs.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	script, err := scripted.Parse(demoScript)
	if err != nil {
		return fmt.Errorf("demo script: %w", err)
	}
	ws, err := os.MkdirTemp("", "baton-demo-")
	if err != nil {
		return fmt.Errorf("demo workspace: %w", err)
	}
	if !*keep {
		defer os.RemoveAll(ws)
	}
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte(demoNotes), 0o644); err != nil {
		return fmt.Errorf("demo workspace: %w", err)
	}
	tools, err := builtin.Open(builtin.Options{Root: ws})
	if err != nil {
		return err
	}
	defer tools.Close()
	id := newSessionID()
	if !fs.json {
		fmt.Fprintf(a.stdout, "baton demo: session %s, workspace %s\n\nuser: %s\n\n", id, ws, demoPrompt)
	}
	spec := driveSpec{store: st, provider: script, model: "scripted-demo", sessionID: id, prompt: demoPrompt, json: fs.json, tools: tools.Tools()}
	if snap, err := a.drive(ctx, spec); err != nil {
		// A stopped or faulted run ends the demo as it ends baton run:
		// the printer has shown how.
		return runExit(snap, err, spec, fs.json)
	}
	poem, err := os.ReadFile(filepath.Join(ws, "poem.txt"))
	if err != nil {
		return fmt.Errorf("demo: the tools did not write poem.txt: %w", err)
	}
	c, err := verifySession(ctx, st, replayRules(), id)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if fs.json {
		return json.NewEncoder(a.stdout).Encode(map[string]any{"session": id, "store": storeName(dir), "steps": c.steps, "verified": true, "poem_bytes": len(poem)})
	}
	fmt.Fprintf(a.stdout, "\nworkspace: poem.txt holds %d bytes written by the write_file tool\n", len(poem))
	fmt.Fprintf(a.stdout, "replay verified: %s, byte for byte%s\n\n", count(int64(c.steps), "step"), c.split())
	fmt.Fprintf(a.stdout, "session %s is in %s; look at it with:\n", id, storeName(dir))
	for _, c := range []string{"log", "log --graph", "replay"} {
		fmt.Fprintf(a.stdout, "  baton %s%s %s\n", c, fs.storeArg(), shellArg(id))
	}
	return nil
}
