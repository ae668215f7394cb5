package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

func (a *app) runPrompt(ctx context.Context, args []string) error {
	fs := a.newFlags("run", `"PROMPT"`, "Run a prompt against a model with the built-in tools: read_file, write_file and\nlist_files confined to the workspace, and, when allowed, shell and http_get, which\nask for approval on the terminal (\"always\" allows what the call does, such as\nits commands, the files it writes or the host, for the session, not the whole\ntool). At a terminal the model may also ask you a question (ask_human); the next\nline typed answers it, other lines typed while the run goes steer it. The first\nCtrl-C stops the run, letting running tools finish; the second stops it at once,\nexiting baton even if a step ignores it. Keys come from OPENAI_API_KEY /\nANTHROPIC_API_KEY (and OPENAI_BASE_URL / ANTHROPIC_BASE_URL).")
	var p providerSpec
	fs.StringVar(&p.name, "provider", "openai", "openai, anthropic or scripted")
	fs.StringVar(&p.model, "model", "", "model name (default per provider)")
	fs.StringVar(&p.baseURL, "base-url", "", "API base URL, e.g. http://localhost:11434/v1 for Ollama")
	fs.StringVar(&p.openAIRules, "openai-rules", "", openAIRulesHelp)
	fs.StringVar(&p.script, "script", "", "script file for --provider scripted")
	session := fs.String("session", "", "go on with this stored session instead of starting one")
	workspace := fs.String("workspace", ".", "folder the file tools are confined to")
	workdir := fs.String("workdir", "", "the session's working directory, inside the workspace: relative paths of the tools start there (default the workspace)")
	instructions := fs.String("instructions", "AGENTS.md", "comma-separated names of project instruction files added to the system prompt, looked for from the working directory up to the repository root; empty for none")
	allowShell := fs.Bool("allow-shell", false, "offer the shell tool (each call needs approval)")
	allowHTTP := fs.Bool("allow-http", false, "offer the http_get tool (each call needs approval)")
	yes := fs.Bool("yes", false, "approve every tool call without asking")
	mflags := addModelFlags(fs)
	servers := addMCPFlags(fs)
	var output outputFlag
	fs.Var(&output, "output-schema", outputFlagHelp)
	runFlags := addRunConfigFlags(fs)
	agents := fs.String("agents", "", "JSON file of delegates the agent may hand tasks to (see README: Delegation)")
	pos, err := fs.parse(args, 1, -1)
	if err != nil {
		return err
	}
	if err := runFlags.check("run"); err != nil {
		return &usageError{fs: fs.FlagSet, msg: err.Error()}
	}
	driver, err := mflags.options(fs)
	if err != nil {
		return err
	}
	if err := checkID("--session", *session); err != nil {
		return &usageError{fs: fs.FlagSet, msg: err.Error()}
	}
	prompt := strings.TrimSpace(strings.Join(pos, " "))
	if prompt == "" {
		return usagef(fs.FlagSet, "run: empty prompt")
	}
	prov, model, err := openProvider(p)
	if err != nil {
		var u *usageError
		if errors.As(err, &u) {
			u.fs = fs.FlagSet
		}
		return err
	}
	stopTracing, err := a.startTracing(ctx, p.name, model)
	if err != nil {
		return err
	}
	defer stopTracing()
	st, _, err := fs.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	spec := driveSpec{store: st, provider: prov, model: model, sessionID: *session, prompt: prompt, json: fs.json, yes: *yes, runConfig: *runFlags, driver: driver, storeArg: fs.storeArg()}
	if spec.workDir, err = sessionDir(*workspace, *workdir); err != nil {
		return usagef(fs.FlagSet, "run: %v", err)
	}
	if *instructions != "" {
		spec.instructions = strings.Split(*instructions, ",")
	}
	if spec.sessionID != "" {
		if _, err := head(ctx, st, spec.sessionID); err != nil {
			return err
		}
		if err := refuseDelegated(ctx, st, spec.sessionID, spec.storeArg); err != nil {
			return err
		}
		spec.existing = true
	} else {
		spec.sessionID = newSessionID()
	}
	tools, err := builtin.Open(builtin.Options{Root: *workspace, AllowShell: *allowShell, AllowHTTP: *allowHTTP})
	if err != nil {
		return err
	}
	defer tools.Close()
	spec.tools = tools.Tools()
	spec.output = output.schema
	if a.interactive {
		// Someone is at the terminal to answer the model's questions.
		spec.tools = append(spec.tools, dispatch.AskHuman(""))
	}
	if *agents != "" {
		if spec.delegates, spec.maxDepth, err = loadAgents(*agents, model, offeredNames(spec.tools)); err != nil {
			return err
		}
	}
	if len(*servers) > 0 {
		// Starting a server may take long or hang until the connect
		// timeout; Ctrl-C stops it, as it stops a run.
		mctx, stopped := a.stopOnInterrupt(ctx)
		mcps, mcpTools, err := openMCP(mctx, *servers, a.stderr)
		if stopped() {
			if err == nil {
				mcps.close()
			}
			return &exitError{code: exitStopped}
		}
		if err != nil {
			return err
		}
		defer mcps.close()
		// The servers' tools are each run's own, not the agent's, so a
		// run in flight can be given a server's changed list.
		spec.mcp = mcps
		if err := checkToolNames("run", append(slices.Clone(spec.tools), mcpTools...)); err != nil {
			return err
		}
	}
	snap, err := a.drive(ctx, spec)
	// A run refused before it started (a config the agent rejects)
	// stored no session, so none is named.
	if _, herr := st.Head(ctx, spec.sessionID); !fs.json && herr == nil {
		fmt.Fprintf(a.stderr, "session %s  (baton log%s %s)\n", safeLine(spec.sessionID), fs.storeArg(), shellArg(spec.sessionID))
	}
	return runExit(snap, err, spec, fs.json)
}

// runExit maps how a run ended to the command's exit: a run the user
// stopped exits 130; a run that faulted exits 1, its error printed once
// (the printer showed it already unless the output is JSON).
func runExit(snap contract.RunSnapshot, err error, spec driveSpec, json bool) error {
	var re *contract.RunError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrLocked):
		return fmt.Errorf("session %q is being driven by another baton process", spec.sessionID)
	case !errors.As(err, &re) || snap.Phase != contract.PhaseFaulted:
		return err
	case re.Kind == contract.KindAborted:
		return &exitError{code: exitStopped}
	case json:
		return &exitError{code: exitFailure, msg: faultText(re)}
	}
	return &exitError{code: exitFailure}
}

// offeredNames are the names of the tools offered, sorted.
func offeredNames(tools []dispatch.Tool) []string {
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Descriptor().Name)
	}
	slices.Sort(names)
	return names
}
