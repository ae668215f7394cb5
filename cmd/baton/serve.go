package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
	"github.com/batonrt/baton/cmd/baton/internal/page"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire"
)

func (a *app) serve(ctx context.Context, args []string) (err error) {
	fs := a.newFlagsNoJSON("serve", "", "Serve agents over AG-UI: POST a RunAgentInput to / and read the run as\nServer-Sent Events (or NDJSON with Accept: application/x-ndjson); POST to\n/?protocol=ai-sdk for the Vercel AI SDK's UI message stream. GET / is a chat page.\nEach thread id is a session of the store; a stored one goes on where it stopped.\nWith --tokens, each user has a token and threads of their own.\nSIGTERM drains the server for a restart: new runs and threads get 503, runs in\nflight have --drain-timeout to end, and those still in flight then are left in\nthe store, not aborted; their streams break off and the clients' reconnects\nresume them on the restarted server (or another sharing a postgres:// store,\nwhich takes them up at once). Ctrl-C stops at once, aborting runs in flight.", "its output is the AG-UI stream it serves")
	var p providerSpec
	fs.StringVar(&p.name, "provider", "openai", "openai, anthropic or scripted")
	fs.StringVar(&p.model, "model", "", "model name (default per provider)")
	fs.StringVar(&p.baseURL, "base-url", "", "API base URL for the provider")
	fs.StringVar(&p.openAIRules, "openai-rules", "", openAIRulesHelp)
	fs.StringVar(&p.script, "script", "", "script file for --provider scripted")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on; beyond loopback a --token or --tokens is required")
	workspace := fs.String("workspace", ".", "folder the file tools are confined to")
	var cfg serveConfig
	fs.StringVar(&cfg.token, "token", os.Getenv("BATON_SERVE_TOKEN"), "bearer token every request must carry, at least 16 bytes beyond loopback (default $BATON_SERVE_TOKEN)")
	tokens := fs.String("tokens", os.Getenv("BATON_SERVE_TOKENS"), "`FILE` of users, one \"NAME TOKEN\" or \"NAME:TOKEN\" a line (# comments): each\nrequest carries its user's token, and each user reaches only their own threads,\nthread T of user U being session NAMESPACE+U/T (default $BATON_SERVE_TOKENS)")
	origins := fs.String("allow-origin", "", "comma-separated origins (https://app.example) whose pages may call the server, * for every one (* and null with a token only); none by default")
	fs.StringVar(&cfg.namespace, "namespace", defaultNamespace, "thread ids are sessions named with this prefix; sessions without it are not served")
	fs.DurationVar(&cfg.idle, "idle-timeout", 5*time.Minute, "close a thread (and release its session) after this long without requests")
	fs.IntVar(&cfg.maxThreads, "max-threads", 1000, "live threads at most; beyond, new threads get 503")
	fs.IntVar(&cfg.maxUserThreads, "max-threads-per-user", 0, "with --tokens, live threads of one user at most, so one user cannot take every\nplace --max-threads leaves; beyond, the user's new threads get 503 (0: no cap but --max-threads)")
	advertise := fs.String("advertise", "", "with a postgres:// --store shared by several serve processes: the URL the others reach this one at, to hand it requests for the threads it drives (default http://ADDR)")
	fs.DurationVar(&cfg.drainTimeout, "drain-timeout", 30*time.Second, "on SIGTERM, how long runs in flight may go on to their end; those still in flight then are left in the store for a restarted server to resume; 0 leaves them at once, as does a second SIGTERM or Ctrl-C")
	allowShell := fs.Bool("allow-shell", false, "offer the shell tool (each call needs the page's approval)")
	allowHTTP := fs.Bool("allow-http", false, "offer the http_get tool (each call needs the page's approval)")
	servers := addMCPFlags(fs)
	mflags := addModelFlags(fs)
	runFlags := addRunConfigFlags(fs)
	if _, err := fs.parse(args, 0, 0); err != nil {
		return err
	}
	if err := runFlags.check("serve"); err != nil {
		return &usageError{fs: fs.FlagSet, msg: err.Error()}
	}
	cfg.run = *runFlags
	driver, err := mflags.options(fs)
	if err != nil {
		return err
	}
	cfg.driver = driver
	if len(cfg.namespace) > store.MaxSessionID/2 || hasControl(cfg.namespace) {
		return &usageError{fs: fs.FlagSet, msg: fmt.Sprintf("--namespace %q: at most %d bytes, no control characters or invisible ones", cfg.namespace, store.MaxSessionID/2)}
	}
	if cfg.token != "" && *tokens != "" {
		return &usageError{fs: fs.FlagSet, msg: "--token and --tokens: give one (BATON_SERVE_TOKEN and BATON_SERVE_TOKENS set them too)"}
	}
	if *tokens != "" {
		if cfg.users, err = a.loadUsers(fs, *tokens, cfg.namespace); err != nil {
			return err
		}
	}
	if err := checkAddr(*addr); err != nil {
		return &usageError{fs: fs.FlagSet, msg: fmt.Sprintf("serve: --addr %s: %v (want HOST:PORT, such as 127.0.0.1:8080)", *addr, err)}
	}
	if cfg.token == "" && len(cfg.users) == 0 && !loopbackAddr(*addr) {
		return &usageError{fs: fs.FlagSet, msg: fmt.Sprintf("--addr %s listens beyond loopback: set --token or BATON_SERVE_TOKEN, or --tokens", *addr)}
	}
	if cfg.token != "" && len(cfg.token) < minTokenLen && !loopbackAddr(*addr) {
		// Beyond loopback the token is all that keeps strangers out: one
		// short enough to guess is refused, as a tokens file's is.
		return &usageError{fs: fs.FlagSet, msg: fmt.Sprintf("--token is %d bytes, at least %d beyond loopback", len(cfg.token), minTokenLen)}
	}
	if err := checkServeLimits(cfg); err != nil {
		return &usageError{fs: fs.FlagSet, msg: err.Error()}
	}
	if cfg.origins, err = parseOrigins(*origins); err != nil {
		return &usageError{fs: fs.FlagSet, msg: err.Error()}
	}
	if *advertise != "" {
		// Checked here, not only once a shared store is open, so a
		// mistake shows on the first start, whatever the store.
		if _, err := advertiseURL(*advertise, nil); err != nil {
			return &usageError{fs: fs.FlagSet, msg: err.Error()}
		}
		// Only a shared store hands requests between processes: with
		// a folder the flag would be ignored.
		if dir, err := fs.storeDir(); err == nil && !isURL(dir) {
			return usagef(fs.FlagSet, "serve: --advertise is for a postgres:// --store that several serve processes share, not a store folder")
		}
	}
	for _, o := range []string{"*", "null"} {
		// Without a token the browser's origin check is all that keeps the
		// pages a user visits from driving the agent on loopback; any page
		// may send Origin null, from a sandboxed frame.
		if slices.Contains(cfg.origins, o) && cfg.token == "" && len(cfg.users) == 0 {
			return &usageError{fs: fs.FlagSet, msg: fmt.Sprintf("--allow-origin %s lets every web page call the server: set --token or BATON_SERVE_TOKEN, or --tokens", o)}
		}
	}
	// A service manager stops a server with SIGTERM, a terminal with
	// SIGINT. Ctrl-C shuts it down at once, at any time from here on, as
	// it starts too; it comes through the channel main listens on from
	// the start, so one pressed before this point is not lost, and a
	// second ends a shutdown a step holds up. SIGTERM stops it starting
	// as Ctrl-C does, and drains it once it serves (see serveWith).
	termed, termedAgain, stopTerm := notifyTerm()
	defer stopTerm()
	cfg.termed, cfg.termedAgain = termed, termedAgain
	ctx, interrupted := a.cancelOnInterrupt(ctx, "\nbaton: shutting down")
	defer func() {
		// Starting cut short is a shutdown, not a failure.
		if (interrupted() || termed.Err() != nil) && errors.Is(err, context.Canceled) {
			err = nil
		}
	}()
	serveCtx := ctx
	ctx, cancelStart := context.WithCancel(ctx)
	defer cancelStart()
	startTermed := context.AfterFunc(termed, cancelStart)
	prov, model, err := openProvider(p)
	if err != nil {
		return err
	}
	stopTracing, err := a.startTracing(ctx, p.name, model)
	if err != nil {
		return err
	}
	defer stopTracing()
	st, shared, err := fs.serveStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	tools, err := builtin.Open(builtin.Options{Root: *workspace, AllowShell: *allowShell, AllowHTTP: *allowHTTP})
	if err != nil {
		return err
	}
	defer tools.Close()
	// A page's user answers the model's questions in the chat.
	offered := append(tools.Tools(), dispatch.AskHuman(""))
	if len(*servers) > 0 {
		mcps, mcpTools, err := openMCP(ctx, *servers, a.stderr)
		if err != nil {
			return err
		}
		defer mcps.close()
		if err := checkToolNames("serve", append(slices.Clone(offered), mcpTools...)); err != nil {
			return err
		}
		cfg.mcp = mcps
	}
	if !startTermed() || ctx.Err() != nil {
		// A step of starting did not heed the cancel but has ended.
		return nil
	}
	// The steps' resources live as long as serveCtx, which a SIGTERM no
	// longer ends.
	ctx = serveCtx
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if shared != nil {
		addr, err := advertiseURL(*advertise, ln.Addr())
		if err != nil {
			ln.Close()
			return err
		}
		if cleartextToken(addr, cfg.secret()) {
			fmt.Fprintf(a.stderr, "baton: warning: requests handed between serve processes carry the bearer token over %s unencrypted; advertise an https:// URL or keep the processes on a private network\n", redactURL(addr))
		}
		shared.Advertise(addr)
		cfg.owner = ownerLookup(shared, cfg.namespace)
		cfg.shared = shared
	}
	return a.serveWith(ctx, ln, st, prov, model, offered, cfg)
}

// defaultNamespace prefixes the sessions serve creates, so that a client
// reaches only those, never one made by baton run.
const defaultNamespace = "serve-"

// serveConfig is what the serve flags say about exposing the handler.
type serveConfig struct {
	token string
	// users, instead of token, each have a token and threads of their
	// own.
	users      []wire.User
	origins    []string
	namespace  string
	idle       time.Duration
	maxThreads int
	// maxUserThreads caps each user's live threads (--tokens only).
	maxUserThreads int
	// driver bounds each model call: timeouts and retries.
	driver conductor.Model
	// run holds what the flags set of each thread's agent config.
	run runConfig
	// owner finds the process that drives a thread, when several share
	// the store.
	owner func(ctx context.Context, threadID string) (*url.URL, error)
	// shared, when several processes share the store, is its backend:
	// the threads a dead process left are resumed here.
	shared *postgres.Backend
	// mcp are the MCP servers whose tools each run offers besides the
	// fixed ones, as listed when the run starts.
	mcp *mcpServers
	// termed ends with the first SIGTERM, which drains the server for
	// drainTimeout; termedAgain closes with the second, which ends the
	// drain at once. Nil: never.
	termed       context.Context
	termedAgain  <-chan struct{}
	drainTimeout time.Duration
}

// secret is a token requests carry, if they carry one.
func (c serveConfig) secret() string {
	if len(c.users) > 0 {
		return c.users[0].Token
	}
	return c.token
}

// loadUsers reads the tokens file, warns when others may read it, and
// checks that each user's name leaves the chat page's thread ids room in
// a session id.
func (a *app) loadUsers(fs *flagSet, path, namespace string) ([]wire.User, error) {
	users, err := readTokens(path)
	if err != nil {
		return nil, err
	}
	if readableByOthers(path) {
		fmt.Fprintf(a.stderr, "baton: warning: the tokens file %s is readable by other users of this machine; chmod 600 it\n", safeLine(path))
	}
	for _, u := range users {
		if room := store.MaxSessionID - len(namespace) - len(u.Name) - 1; room < pageThreadID {
			return nil, &usageError{fs: fs.FlagSet, msg: fmt.Sprintf("user %q with --namespace %q leaves thread ids %d bytes, fewer than the chat page's %d: shorten one", u.Name, namespace, room, pageThreadID)}
		}
	}
	return users, nil
}

// checkAddr says what is wrong with an address to listen on, before the
// loopback check would read a malformed one as beyond loopback and ask
// for a token, and before the provider, store and tools are opened.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) {
			return errors.New(ae.Err)
		}
		return err
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return errors.New("invalid port")
	}
	return nil
}

// loopbackAddr reports whether a listen address reaches only this
// machine; ":8080" listens on every interface.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// shutdownGrace bounds how long a shutdown waits for connections (after a
// drain, at least what is left of the drain's time, for the streams
// relayed of other processes' runs). The agents are closed first, so
// every stream of this process's own runs has ended by then; what can
// still hold a connection open is a client that connected and sent no
// request (a browser's preconnect), which http.Server.Shutdown would wait
// for until its context ended, so those are closed after the grace.
const shutdownGrace = time.Second

// serveOn serves on ln until ctx ends, with the flags' defaults.
func (a *app) serveOn(ctx context.Context, ln net.Listener, st store.Store, prov turn.Provider, model string, tools []dispatch.Tool) error {
	return a.serveWith(ctx, ln, st, prov, model, tools, serveConfig{namespace: defaultNamespace})
}

// serveWith serves on ln until ctx ends, which stops it at once: runs in
// flight are aborted; or until cfg.termed ends, which drains it (see
// drain). Thread T is session cfg.namespace+T, or with users, user U's
// thread T is session cfg.namespace+U/T. Slow or silent clients
// are cut off: headers within 10s, bodies within the handler's body
// timeout, idle connections after 2 minutes.
func (a *app) serveWith(ctx context.Context, ln net.Listener, st store.Store, prov turn.Provider, model string, tools []dispatch.Tool, cfg serveConfig) error {
	h := wire.NewRunnerHandler(func(ctx context.Context, threadID string) (wire.Runner, error) {
		if err := cfg.drivenElsewhere(ctx, st, threadID); err != nil {
			return nil, err
		}
		agentCfg := baseConfig(model)
		cfg.run.apply(&agentCfg)
		return openThread(ctx, st, prov, agentCfg, tools, cfg.mcp, cfg.driver, cfg.namespace+threadID, a.tracer)
	}, wire.HandlerOptions{
		Token:             cfg.token,
		Users:             cfg.users,
		AllowedOrigins:    cfg.origins,
		MaxThreadID:       store.MaxSessionID - len(cfg.namespace),
		MaxThreads:        cfg.maxThreads,
		MaxThreadsPerUser: cfg.maxUserThreads,
		IdleTimeout:       cfg.idle,
		ClientAnswers:     true,
		Owner:             cfg.owner,
		// What a 500 does not tell the client, and what else fails
		// serving, is told whoever runs the server.
		Logger: slog.New(slog.NewTextHandler(lockedWriter{mu: new(sync.Mutex), w: a.stderr}, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	// The chat page and its assets are static; every other request is
	// the protocol handler's.
	pageOr := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if page.Wants(r) {
			page.Handler().ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: pageOr, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	sessions := fmt.Sprintf("thread T is session %sT", cfg.namespace)
	if len(cfg.users) > 0 {
		sessions = fmt.Sprintf("user U's thread T is session %sU/T", cfg.namespace)
	}
	fmt.Fprintf(a.stdout, "baton: serving AG-UI on http://%s/ (%s)\n", ln.Addr(), sessions)
	fmt.Fprintf(a.stdout, "baton: chat page at http://%s/\n", ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	stopAdopting := a.startAdopting(ctx, h, cfg)
	var termed <-chan struct{}
	if cfg.termed != nil {
		termed = cfg.termed.Done()
	}
	var closeErr error
	grace := shutdownGrace
	select {
	case err := <-served:
		stopAdopting()
		h.Close()
		return fmt.Errorf("serve: %w", err)
	case <-termed:
		stopAdopting()
		srv.SetKeepAlivesEnabled(false)
		drainEnd := time.Now().Add(cfg.drainTimeout)
		closeErr = a.drain(ctx, h, cfg)
		if ctx.Err() == nil && !closedChan(cfg.termedAgain) {
			// The streams this process relays of another's runs are no
			// run of its own, which the drain waited for: they have what
			// is left of its time to end too.
			grace = max(grace, time.Until(drainEnd))
		}
	case <-ctx.Done():
		if !errors.Is(context.Cause(ctx), errInterrupted) {
			// Ctrl-C said so already.
			fmt.Fprintln(a.stderr, "baton: shutting down")
		}
		stopAdopting()
		closeErr = h.Close()
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if grace > shutdownGrace {
		// A second SIGTERM or Ctrl-C ends the wait, as it ends a drain.
		defer context.AfterFunc(ctx, cancel)()
		go func() {
			select {
			case <-cfg.termedAgain:
				cancel()
			case <-sctx.Done():
			}
		}()
	}
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
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
func openThread(ctx context.Context, st store.Store, prov turn.Provider, agentCfg contract.AgentConfig, tools []dispatch.Tool, mcps *mcpServers, driver conductor.Model, id string, tracer *tracing.Tracer) (wire.Runner, error) {
	// The MCP servers' tools are not the agent's but each run's own, as
	// listed when it starts: a tool a server dropped is offered no more.
	box, err := dispatch.NewToolBox(tools...)
	if err != nil {
		return nil, err
	}
	driver.Provider = prov
	agent, err := conductor.CreateAgent(agentCfg, conductor.Deps{Model: driver, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
	if err != nil {
		return nil, err
	}
	if tracer != nil {
		tracer.Attach(agent)
	}
	if _, err := st.Head(ctx, id); err == nil {
		// Reopen, not Resume: a run waiting for the page's answer (a
		// question, an approval) goes on waiting for it.
		if _, err := agent.Reopen(ctx, id, mcps.with(ctx, tools)...); err != nil {
			agent.Close()
			return nil, err
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		agent.Close()
		return nil, err
	}
	return toolRunner{Agent: agent, tools: tools, mcp: mcps, unfollow: mcps.follow(agent, tools)}, nil
}

// toolRunner hands the tools, with the MCP servers' tools as they are
// then, to every submit, so that each Submitted record names them and
// the session replays under the command line's rules; a server's tools
// that change while a run goes on reach that run too (follow). It embeds the agent, as wire.AgentRunner does, so that it is
// every optional runner the wire probes for: one it were not would have
// a delegated run's decision offered to the whole tree, its open
// requests hidden from a client that comes afresh.
type toolRunner struct {
	*conductor.Agent
	tools []dispatch.Tool
	mcp   *mcpServers
	// unfollow stops giving the agent's runs the servers' changed tools.
	unfollow func()
}

var (
	_ wire.SteerRunner      = toolRunner{}
	_ wire.HumanRunner      = toolRunner{}
	_ wire.FailedRunner     = toolRunner{}
	_ wire.SubflowAsker     = toolRunner{}
	_ wire.DelegatedEventer = toolRunner{}
	_ wire.SubflowAnswerer  = toolRunner{}
	_ wire.SubflowApprover  = toolRunner{}
	_ wire.CallsApprover    = toolRunner{}
	_ wire.CallAnswerer     = toolRunner{}
	_ wire.PeopleWaiter     = toolRunner{}
	_ wire.Aborter          = toolRunner{}
	_ wire.Leaver           = toolRunner{}
)

// Steer takes a message the page posts while the run is in flight
// (wire.SteerRunner).
func (r toolRunner) Steer(ctx context.Context, input []contract.Turn) error {
	return r.Agent.Steer(ctx, conductor.Input{Turns: input})
}

// Close stops giving the agent's runs the MCP servers' changed tools,
// then closes the agent.
func (r toolRunner) Close() error {
	r.unfollow()
	return r.Agent.Close()
}

// Leave is Close, leaving a run in flight in the store (wire.Leaver).
func (r toolRunner) Leave() error {
	r.unfollow()
	return r.Agent.Leave()
}

func (r toolRunner) Submit(ctx context.Context, input []contract.Turn) (contract.RunSnapshot, error) {
	return r.Agent.Submit(ctx, conductor.Input{Turns: input, Tools: r.mcp.with(ctx, r.tools)})
}
