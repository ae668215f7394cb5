package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire"
)

func (a *app) serve(ctx context.Context, args []string) error {
	fs := a.newFlags("serve", "", "Serve agents over AG-UI: POST a RunAgentInput to / and read the run as\nServer-Sent Events (or NDJSON with Accept: application/x-ndjson). Each thread id\nis a session of the store; a stored one goes on where it stopped.")
	var p providerSpec
	fs.StringVar(&p.name, "provider", "openai", "openai, anthropic or scripted")
	fs.StringVar(&p.model, "model", "", "model name (default per provider)")
	fs.StringVar(&p.baseURL, "base-url", "", "API base URL for the provider")
	fs.StringVar(&p.script, "script", "", "script file for --provider scripted")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	workspace := fs.String("workspace", ".", "folder the file tools are confined to")
	if _, err := fs.parse(args, 0, 0); err != nil {
		return err
	}
	// A service manager stops a server with SIGTERM, a terminal with
	// SIGINT: both shut it down gracefully.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	prov, model, err := openProvider(p)
	if err != nil {
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
	tools, err := builtin.Open(builtin.Options{Root: *workspace})
	if err != nil {
		return err
	}
	defer tools.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return a.serveOn(ctx, ln, st, prov, model, tools.Tools())
}

// shutdownGrace bounds how long a shutdown waits for connections. The
// agents are closed first, so every stream has ended by then; what can
// still hold a connection open is a client that connected and sent no
// request (a browser's preconnect), which http.Server.Shutdown would wait
// for until its context ended, so those are closed after the grace.
const shutdownGrace = time.Second

// serveOn serves on ln until ctx ends.
func (a *app) serveOn(ctx context.Context, ln net.Listener, st store.Store, prov turn.Provider, model string, tools []dispatch.Tool) error {
	h := wire.NewRunnerHandler(func(ctx context.Context, threadID string) (wire.Runner, error) {
		return openThread(ctx, st, prov, model, tools, threadID, a.tracer)
	}, wire.HandlerOptions{})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(a.stdout, "baton: serving AG-UI on http://%s/\n", ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		h.Close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	fmt.Fprintln(a.stderr, "baton: shutting down")
	closeErr := h.Close()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	<-served
	if err = errors.Join(closeErr, err); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	return nil
}

// openThread makes the agent of one AG-UI thread, going on with the
// stored session of that id if there is one.
func openThread(ctx context.Context, st store.Store, prov turn.Provider, model string, tools []dispatch.Tool, id string, tracer *tracing.Tracer) (wire.Runner, error) {
	box, err := dispatch.NewToolBox(tools...)
	if err != nil {
		return nil, err
	}
	agent, err := conductor.CreateAgent(baseConfig(model), conductor.Deps{Provider: prov, Tools: box, Store: st, SessionID: id, Approver: autoApprover(false)})
	if err != nil {
		return nil, err
	}
	if tracer != nil {
		tracer.Attach(agent)
	}
	if _, err := st.Head(ctx, id); err == nil {
		if _, err := agent.Resume(ctx, id); err != nil {
			agent.Close()
			return nil, err
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		agent.Close()
		return nil, err
	}
	return toolRunner{wire.AgentRunner(agent), agent, tools}, nil
}

// toolRunner hands the tools to every submit, so that each Submitted
// record names them and the session replays under the command line's
// rules.
type toolRunner struct {
	wire.Runner
	agent *conductor.Agent
	tools []dispatch.Tool
}

func (r toolRunner) Submit(ctx context.Context, input []contract.Turn) (contract.RunSnapshot, error) {
	return r.agent.Submit(ctx, conductor.Input{Turns: input, Tools: r.tools})
}
