package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/batonrt/baton/conductor"
)

// ErrUnknownThread is what a thread factory returns for a thread it will
// not create; the handler answers 404.
var ErrUnknownThread = errors.New("wire: unknown thread")

// HandlerOptions configure a Handler. The zero value works and is safe to
// expose on loopback: same-origin requests only, no token.
type HandlerOptions struct {
	// Protocol is what a request speaks when it names none with the
	// protocol query parameter; empty means ProtocolAGUI. Mount a second
	// Handler with ProtocolAISDK to serve AI SDK clients on a path of
	// their own without changing their URLs.
	Protocol Protocol
	// Token, when set, is the bearer token every request must carry in
	// its Authorization header.
	Token string
	// Users, instead of Token, are several users, each with a bearer
	// token of their own, and each with threads of their own: the same
	// thread id sent by two users names two threads, and a user naming
	// another's thread is answered exactly as for a thread nobody used.
	// The runner factory, Owner and Open see a thread by its key, the
	// user's name, a slash and the client's thread id ("alice/t1"), which
	// MaxThreadID bounds; the client's protocol sees its own id. Tokens
	// are compared in constant time. A request handed to another handler
	// (Owner) is served there only if that handler's Users give its token
	// to the same user.
	Users []User
	// AllowedOrigins are the origins (scheme://host[:port]) whose pages
	// may call the handler; a request from any other origin is refused,
	// and the handler answers CORS preflights for these only. "*" allows
	// every origin. Requests without an Origin header (not from a
	// browser) and same-origin requests are always allowed.
	AllowedOrigins []string
	// MaxBody bounds a request body; zero means 4 MiB.
	MaxBody int64
	// BodyTimeout bounds reading a request body; zero means 10s.
	BodyTimeout time.Duration
	// WriteTimeout bounds each write of a stream, relayed ones included:
	// a client that stops reading is cut off rather than holding its
	// connection and the stream's goroutines for ever. Zero means 30s.
	WriteTimeout time.Duration
	// MaxThreadID bounds a thread id, or with Users a thread's key, in
	// bytes; zero means 80.
	MaxThreadID int
	// MaxThreads caps the live threads; a request for a new thread when
	// all are busy gets 503, with a Retry-After. Zero means 1000.
	MaxThreads int
	// MaxThreadsPerUser caps, with Users, each user's live threads, so
	// that one user cannot take every place MaxThreads leaves: a user at
	// the cap gets 503 for a new thread unless one of the user's own
	// threads is idle, which gives its place. Zero means no cap but
	// MaxThreads.
	MaxThreadsPerUser int
	// IdleTimeout is how long a thread with no request and no run stays
	// open; zero means 5 minutes.
	IdleTimeout time.Duration
	// OpenTimeout bounds opening a thread (creating or resuming its
	// agent); zero means 1 minute.
	OpenTimeout time.Duration
	// ClientAnswers says the client answers the questions a run asks a
	// person (ask_human) and its approval requests (agents made with
	// conductor.ApproveLater): a stream ends, in its protocol's terms,
	// where its run waits for one, and the client's answer, posted back
	// as a tool result (AG-UI: a tool message; AI SDK: the tool part's
	// output, from addToolOutput), resumes the run and streams the rest.
	// An approval's answer is {"approved": bool, "scope": "once"|"session",
	// "reason": "..."} or one of yes, always, no; AI SDK clients see the
	// call's part in approval-requested and answer with
	// addToolApprovalResponse. A message the client writes instead
	// steers the run, and the answers it carries (AG-UI: tool messages
	// right before it; AI SDK: approval responses in the assistant
	// message before it) are applied first. Without it a stream waits,
	// open, for whoever answers.
	ClientAnswers bool
	// Owner, for one of several handlers serving sessions of one shared
	// store (baton serve on PostgreSQL), says where a thread is driven
	// when this handler cannot open it because another process holds its
	// session (the runner factory failed with store.ErrLocked): the base
	// URL of the handler in that process. The request is handed there,
	// with a Baton-Forwarded header, and its answer relayed, streams
	// included, so a client may talk to any of the handlers: a run, a
	// resumed stream, an approval or an answer all reach the one driver.
	// A handler answers a forwarded request it cannot serve with 421, and
	// the sender looks again, for a short while, opening the thread
	// itself once the owner's lock is free (the owner died). An error
	// from Owner means no owner is known. Nil refuses such requests with
	// 409.
	Owner func(ctx context.Context, threadID string) (*url.URL, error)
	// Logger receives request failures; nil discards.
	Logger *slog.Logger
}

func (o HandlerOptions) withDefaults() HandlerOptions {
	if o.Protocol == "" {
		o.Protocol = ProtocolAGUI
	}
	if o.MaxBody <= 0 {
		o.MaxBody = 4 << 20
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = 10 * time.Second
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = defaultWriteTimeout
	}
	if o.MaxThreadID <= 0 {
		o.MaxThreadID = 80
	}
	if o.MaxThreads <= 0 {
		o.MaxThreads = 1000
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 5 * time.Minute
	}
	if o.OpenTimeout <= 0 {
		o.OpenTimeout = time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Handler serves two client protocols, chosen per request by the
// protocol query parameter ("ag-ui" or "ai-sdk"), else by
// HandlerOptions.Protocol:
//
// AG-UI (the default): POST a RunAgentInput to start a run on its thread
// and get AG-UI events over SSE; POST or GET with a Last-Event-ID header
// (or a lastEventId query parameter, with threadId, for GET) to resume a
// stream exactly after the event it names. A stream that goes on from
// one run into the next (a post's decision and message) names in its
// ids the run it goes on with, so a resumed one goes on with it too.
//
// The Vercel AI SDK (ai-sdk): POST the body its chat transport sends,
// {id, messages}, where id is the thread and the trailing user message's
// text parts are the input, and get the UI message stream over SSE with
// the x-vercel-ai-ui-message-stream header. GET .../{id}/stream, the
// transport's resume request, replays the thread's run in flight from its
// start and follows it, or answers 204 when there is none.
//
// Either way, a client that accepts application/x-ndjson gets baton's own
// events instead, and resumes from an event by its seq ("seq.delta" for
// a delta) as Last-Event-ID. A delegated run's event (one with a
// subflow) is numbered in its own session, so it is named after the
// newest event of the client's own run before it: that event's id, "+",
// the delegated event's session_id percent-encoded (as JavaScript's
// encodeURIComponent does: '+', ':', '@' and '%' escaped at least), ":"
// and its seq, with ".delta" for a delta: "12+t1%2F4.0:7.3" resumes
// right after delta 3 of seq 7 of session t1/4.0, which came after seq
// 12 of the client's run. Once the thread was opened again from the
// store, which keeps no deltas, a delegate's delta names the newest
// event of its session before it, and its model call's stored reply
// follows. AG-UI's own ids of a delegate's frames, "id+n", count the
// delegate's stored events instead; either form is taken by either
// protocol. A stream that goes on from one run into the next says in
// its Baton-Chain header what to append to these ids for the resumed
// stream to go on with it too. A POST must be application/json.
//
// POST .../{thread}/abort stops the thread's run in flight, for clients
// of either protocol: leaving a stream only detaches from its run, which
// goes on so that the client may come back. The body is empty or
// {"mode": "now"|"after_reply"|"after_tools"} (contract.AbortMode; empty
// means now). It answers 204 once a run stopped now has ended, its
// streams closing with the protocol's abort events (AG-UI RUN_ERROR with
// code "aborted", AI SDK abort chunk); 202 when the run ends later, after
// its model's reply or its running tools; 409 when the thread has no run
// in flight (it ended on its own, with its result); 404 for a thread the
// factory does not know. A thread driven by another process is stopped
// there (HandlerOptions.Owner).
//
// POST .../{thread}/steer with {"text": "..."} hands a message to the
// thread's run in flight as steering, without a stream of its own: the
// client's open stream shows the run take it and goes on. 202 when the
// run took it, 409 when there is no run in flight.
//
// GET .../{thread}/messages reads the thread's conversation, every run
// of it, as the AI SDK chat's messages, with the phase of its run:
// {"messages": [...], "phase": "settled"}, with "error" when its last
// run faulted; see aisdk.Fold.
type Handler struct {
	newRunner func(ctx context.Context, threadID string) (Runner, error)
	opts      HandlerOptions
	users     []account

	mu      sync.Mutex
	threads map[string]*thread
	// retiring are the threads taken out of threads and still closing.
	retiring map[string]*thread
	closed   bool
	// draining refuses new work (Drain).
	draining bool
	quit     chan struct{}
	runs     sync.WaitGroup // runs in flight
	opening  sync.WaitGroup // threads being opened
	closing  sync.WaitGroup // the reaper and threads being closed
}

// NewHandler serves the agents newAgent creates, one per thread id.
// newAgent returns an agent or an error (ErrUnknownThread for a thread
// it will not serve); a request whose thread it gives neither is
// answered 500, as is every request when newAgent is nil.
func NewHandler(newAgent func(ctx context.Context, threadID string) (*conductor.Agent, error), opts HandlerOptions) *Handler {
	if newAgent == nil {
		return NewRunnerHandler(nil, opts)
	}
	return NewRunnerHandler(func(ctx context.Context, threadID string) (Runner, error) {
		a, err := newAgent(ctx, threadID)
		if err != nil || a == nil {
			return nil, err
		}
		return AgentRunner(a), nil
	}, opts)
}

// NewRunnerHandler serves any Runner. Close stops it. It panics when
// opts.Users name a user twice, give two users one token, or are given
// with a Token.
func NewRunnerHandler(newRunner func(ctx context.Context, threadID string) (Runner, error), opts HandlerOptions) *Handler {
	h := &Handler{newRunner: newRunner, opts: opts.withDefaults(), users: accounts(opts), threads: map[string]*thread{}, retiring: map[string]*thread{}, quit: make(chan struct{})}
	h.closing.Add(1)
	go h.reap()
	return h
}

// Close closes every thread's agent (ending runs in flight) and waits for
// their runs to return. Drain is the gentle way.
func (h *Handler) Close() error {
	return h.close(false)
}

// close is Close; with leave, the runs in flight are left in flight
// rather than ended (see Drain).
func (h *Handler) close(leave bool) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	close(h.quit)
	h.mu.Unlock()
	h.opening.Wait()
	h.mu.Lock()
	threads := h.threads
	h.threads = map[string]*thread{}
	h.mu.Unlock()
	var errs []error
	for _, t := range threads {
		if t.err == nil {
			errs = append(errs, h.closeThread(t, leave))
		}
	}
	h.runs.Wait()
	h.closing.Wait()
	return errors.Join(errs...)
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	user, ok := h.guard(w, r)
	if !ok {
		return
	}
	r = withUser(r, user)
	if h.opts.Owner != nil && r.Method == http.MethodPost {
		r = keepBody(r)
	}
	// Either protocol's client stops, steers and reads a thread alike.
	switch {
	case isThreadRoute(r, http.MethodPost, abortSuffix):
		h.abort(w, r)
		return
	case isThreadRoute(r, http.MethodPost, steerSuffix):
		h.steerRun(w, r)
		return
	case isThreadRoute(r, http.MethodGet, messagesSuffix):
		h.messages(w, r)
		return
	}
	proto, err := h.requestProtocol(r)
	if err != nil {
		refuse(w, http.StatusBadRequest, "%v", err)
		return
	}
	switch {
	case proto == ProtocolAISDK && r.Method == http.MethodGet:
		h.resumeChat(w, r)
	case proto == ProtocolAISDK && r.Method == http.MethodPost:
		h.postChat(w, r)
	case r.Method == http.MethodGet:
		q := r.URL.Query()
		last := r.Header.Get("Last-Event-ID")
		if last == "" {
			last = q.Get("lastEventId")
		}
		h.resume(w, r, q.Get("threadId"), last)
	case r.Method == http.MethodPost:
		h.post(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, OPTIONS")
		refuse(w, http.StatusMethodNotAllowed, "wire: method %s not allowed", r.Method)
	}
}

// readBody reads a POST's body within the size and time limits. A body
// refused midway closes the connection, so that the server does not wait
// to drain the rest of it.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		w.Header().Set("Connection", "close")
		httpError(w, http.StatusRequestEntityTooLarge, "wire: body over %d bytes", tooLarge.Limit)
		return nil, false
	case err != nil:
		w.Header().Set("Connection", "close")
		httpError(w, http.StatusRequestTimeout, "wire: read body: %v", err)
		return nil, false
	}
	_ = rc.SetReadDeadline(time.Time{})
	if p, ok := r.Context().Value(bodyKey{}).(*[]byte); ok {
		*p = body
	}
	return body, true
}

func httpError(w http.ResponseWriter, code int, format string, args ...any) {
	http.Error(w, fmt.Sprintf(format, args...), code)
}

// internalError answers 500 for a failure of the server's own (its
// store, its runner factory) with what failed, not why: the error's text
// may name files, hosts and credentials. The error goes to the log.
func (h *Handler) internalError(w http.ResponseWriter, err error, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	h.opts.Logger.Error(msg, "err", err)
	http.Error(w, msg, http.StatusInternalServerError)
}
