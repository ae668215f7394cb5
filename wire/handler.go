package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/batonrt/baton/conductor"
)

// ErrUnknownThread is what a thread factory returns for a thread it will
// not create; the handler answers 404.
var ErrUnknownThread = errors.New("wire: unknown thread")

// HandlerOptions configure a Handler. The zero value works.
type HandlerOptions struct {
	// MaxBody bounds a request body; zero means 4 MiB.
	MaxBody int64
	// Logger receives request failures; nil discards.
	Logger *slog.Logger
	// Protocol is what a request speaks when it names none with the
	// protocol query parameter; empty means ProtocolAGUI. Mount a second
	// Handler with ProtocolAISDK to serve AI SDK clients on a path of
	// their own without changing their URLs.
	Protocol Protocol
}

// Handler serves two client protocols, chosen per request by the
// protocol query parameter ("ag-ui" or "ai-sdk"), else by
// HandlerOptions.Protocol:
//
// AG-UI (the default): POST a RunAgentInput to start a run on its thread
// and get AG-UI events over SSE; POST or GET with a Last-Event-ID header
// (or a lastEventId query parameter, with threadId, for GET) to resume a
// stream.
//
// The Vercel AI SDK (ai-sdk): POST the body its chat transport sends,
// {id, messages}, where id is the thread and the trailing user message's
// text parts are the input, and get the UI message stream over SSE with
// the x-vercel-ai-ui-message-stream header. GET .../{id}/stream, the
// transport's resume request, replays the thread's run in flight from its
// start and follows it, or answers 204 when there is none.
//
// Either way, a client that accepts application/x-ndjson gets baton's own
// events instead.
type Handler struct {
	newRunner func(ctx context.Context, threadID string) (Runner, error)
	opts      HandlerOptions

	mu      sync.Mutex
	threads map[string]*thread
	closed  bool
	runs    sync.WaitGroup
}

type thread struct {
	r       Runner
	running bool
}

// NewHandler serves the agents newAgent creates, one per thread id.
func NewHandler(newAgent func(ctx context.Context, threadID string) (*conductor.Agent, error), opts HandlerOptions) *Handler {
	return NewRunnerHandler(func(ctx context.Context, threadID string) (Runner, error) {
		a, err := newAgent(ctx, threadID)
		if err != nil {
			return nil, err
		}
		return AgentRunner(a), nil
	}, opts)
}

// NewRunnerHandler serves any Runner.
func NewRunnerHandler(newRunner func(ctx context.Context, threadID string) (Runner, error), opts HandlerOptions) *Handler {
	if opts.MaxBody <= 0 {
		opts.MaxBody = 4 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Protocol == "" {
		opts.Protocol = ProtocolAGUI
	}
	return &Handler{newRunner: newRunner, opts: opts, threads: map[string]*thread{}}
}

// Close closes every thread's agent (ending runs in flight) and waits for
// their runs to return.
func (h *Handler) Close() error {
	h.mu.Lock()
	h.closed = true
	threads := h.threads
	h.threads = map[string]*thread{}
	h.mu.Unlock()
	var errs []error
	for _, t := range threads {
		errs = append(errs, t.r.Close())
	}
	h.runs.Wait()
	return errors.Join(errs...)
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	proto, err := h.requestProtocol(r)
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
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
		w.Header().Set("Allow", "GET, POST")
		httpError(w, http.StatusMethodNotAllowed, "wire: method %s not allowed", r.Method)
	}
}

func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		httpError(w, http.StatusRequestEntityTooLarge, "wire: read body: %v", err)
		return nil, false
	}
	return body, true
}

// lookup returns the thread's runner, creating it when create is set.
func (h *Handler) lookup(ctx context.Context, id string, create bool) (*thread, int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, http.StatusServiceUnavailable, errors.New("wire: handler closed")
	}
	if t, ok := h.threads[id]; ok {
		return t, 0, nil
	}
	if !create {
		return nil, http.StatusNotFound, ErrUnknownThread
	}
	r, err := h.newRunner(ctx, id)
	switch {
	case errors.Is(err, ErrUnknownThread):
		return nil, http.StatusNotFound, err
	case err != nil:
		return nil, http.StatusInternalServerError, err
	}
	t := &thread{r: r}
	h.threads[id] = t
	return t, 0, nil
}

// parseEventID reads an SSE id as written by the projector: "seq" or
// "seq.delta". Resume works at committed events, so the delta is dropped.
func parseEventID(s string) (uint64, error) {
	seq, _, _ := strings.Cut(s, ".")
	n, err := strconv.ParseUint(seq, 10, 64)
	if err != nil {
		return 0, errors.New("wire: Last-Event-ID must be \"seq\" or \"seq.delta\"")
	}
	return n, nil
}

func httpError(w http.ResponseWriter, code int, format string, args ...any) {
	http.Error(w, fmt.Sprintf(format, args...), code)
}
