package wire

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/wire/internal/track"
)

// thread is one live thread: its runner, the log its streams read, and
// who uses it. The handler closes a thread that has had no request and no
// run for HandlerOptions.IdleTimeout, which releases its agent and its
// session lock; the next request opens it again from the store.
type thread struct {
	// id is the thread's id as its client names it; key is what the
	// handler keys it by, and hands the runner factory and Owner (see
	// HandlerOptions.Users).
	id    string
	key   string
	user  string        // the user the thread is kept under; empty without Users
	ready chan struct{} // closed once r (or err) is set
	r     Runner
	err   error
	log   *eventLog
	stop  func() // ends the log's subscription
	// closed is closed once the thread's runner is closed, its session
	// released.
	closed chan struct{}
	// left is set when the thread is closed leaving its run in flight
	// (Drain): its streams are broken off rather than ended.
	left atomic.Bool

	// Guarded by the handler's mu.
	users   int
	running bool
	// returned is closed when the Submit of the thread's claimed run
	// returns (unclaim).
	returned chan struct{}
	// claimedAfter is the run id the runner's snapshot had when the run
	// was claimed: until it changes, the claimed run has not started.
	claimedAfter string
	idle         time.Time
	// taken are the client message ids, with their texts, of posts whose
	// turns the session does not hold yet (see takeNew); untaken is
	// closed when some are given back.
	taken   map[string]string
	untaken chan struct{}
}

// errBusy is returned when every live thread is in use and the cap is
// reached.
var errBusy = errors.New("wire: too many live threads; try again later")

// errUserBusy is returned when the user's live threads are at
// MaxThreadsPerUser and none of them is idle.
var errUserBusy = errors.New("wire: too many live threads of this user; try again later")

// errClosed refuses every request once the handler is closed.
var errClosed = errors.New("wire: handler closed")

// acquire returns the thread named n, opening it if need be, and counts
// the caller as its user until release. Opening runs outside the
// handler's lock: recovering one thread (a resumed model call) never
// holds up another.
func (h *Handler) acquire(ctx context.Context, n threadName) (*thread, int, error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, http.StatusServiceUnavailable, errClosed
	}
	t, ok := h.threads[n.key]
	if ok && h.failedLocked(t) {
		// Its runner refuses all work: the thread opens again, here or,
		// when another process took the session over, is handed there.
		h.closeFailedLocked(t)
		ok = false
	}
	if !ok {
		if h.draining {
			h.mu.Unlock()
			return nil, http.StatusServiceUnavailable, errDraining
		}
		if h.userAtCapLocked(n.user) && !h.evictLocked(n.user) {
			h.mu.Unlock()
			return nil, http.StatusServiceUnavailable, errUserBusy
		}
		if len(h.threads) >= h.opts.MaxThreads && !h.evictLocked("") {
			h.mu.Unlock()
			return nil, http.StatusServiceUnavailable, errBusy
		}
		t = &thread{id: n.id, key: n.key, user: n.user, ready: make(chan struct{}), closed: make(chan struct{})}
		h.threads[n.key] = t
		h.opening.Add(1)
		go h.open(t, h.retiring[n.key])
	}
	t.users++
	h.mu.Unlock()
	select {
	case <-t.ready:
	case <-ctx.Done():
		h.release(t)
		return nil, http.StatusServiceUnavailable, ctx.Err()
	}
	if t.err != nil {
		h.release(t)
		if errors.Is(t.err, ErrUnknownThread) {
			return nil, http.StatusNotFound, t.err
		}
		if errors.Is(t.err, store.ErrLocked) {
			// Another process drives the thread's session (several servers
			// over one shared store): a second driver is refused.
			return nil, http.StatusConflict, fmt.Errorf("wire: thread %q is driven by another process: %w", n.id, t.err)
		}
		return nil, http.StatusInternalServerError, t.err
	}
	return t, 0, nil
}

// useThread checks a request's thread id and acquires its thread, or
// answers the request: with why not, or by handing it to the process that
// drives the thread.
func (h *Handler) useThread(w http.ResponseWriter, r *http.Request, id string) (*thread, bool) {
	n, err := h.threadName(r, id)
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return nil, false
	}
	t, answered, code, err := h.reach(w, r, n)
	if err != nil {
		h.threadError(w, id, code, err)
	}
	return t, err == nil && !answered
}

// retryAfter is the Retry-After of a 503: a busy thread frees up when a
// run ends, a closing handler's work moves to another process or comes
// back with a restart.
const retryAfter = "5"

// threadError answers a request whose thread could not be had.
func (h *Handler) threadError(w http.ResponseWriter, id string, code int, err error) {
	switch code {
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", retryAfter)
	case http.StatusInternalServerError:
		// The runner factory failed: its error is the server's own.
		h.internalError(w, err, "wire: thread %q could not be opened", id)
		return
	}
	httpError(w, code, "%v", err)
}

// open makes the thread's runner, once the thread's previous runner (prev,
// when it is still closing) has released the session. A failed open is
// forgotten, so that the next request tries again.
func (h *Handler) open(t *thread, prev *thread) {
	defer h.opening.Done()
	if prev != nil {
		<-prev.closed
	}
	ctx, cancel := context.WithTimeout(context.Background(), h.opts.OpenTimeout)
	defer cancel()
	r, err := h.runner(ctx, t.key)
	if err == nil {
		t.r, t.log = r, newEventLog(r)
		t.stop = r.Subscribe(t.log.add)
	}
	t.err = err
	if err != nil {
		h.mu.Lock()
		if h.threads[t.key] == t {
			delete(h.threads, t.key)
		}
		h.mu.Unlock()
	}
	close(t.ready)
}

// runner asks the factory for a thread's runner. A factory missing, or
// one that returns neither a runner nor an error, is the host's mistake,
// told as the thread's error rather than left to crash the goroutine
// that opens it.
func (h *Handler) runner(ctx context.Context, key string) (Runner, error) {
	if h.newRunner == nil {
		return nil, errors.New("wire: the handler has no factory (NewHandler or NewRunnerHandler was given nil)")
	}
	r, err := h.newRunner(ctx, key)
	if err == nil && r == nil {
		return nil, fmt.Errorf("wire: the factory returned neither a runner nor an error for thread %q (ErrUnknownThread is how it refuses one)", key)
	}
	return r, err
}

func (h *Handler) release(t *thread) {
	h.mu.Lock()
	t.users--
	if t.users == 0 {
		t.idle = time.Now()
	}
	h.mu.Unlock()
}

// idleLocked reports whether nothing holds the thread: no request, no
// run, nothing in flight.
func (h *Handler) idleLocked(t *thread) bool {
	select {
	case <-t.ready:
	default:
		return false
	}
	if t.users > 0 || t.err != nil {
		return false
	}
	if h.failedLocked(t) {
		return true
	}
	switch phase := t.r.Snapshot().Phase; {
	case h.opts.ClientAnswers && (phase == contract.PhaseAwaitingHuman || phase == contract.PhaseAwaitingApproval):
		// The run waits for a client that may never come back: closing
		// the runner leaves the run waiting in the store, and the
		// client's answer opens the thread again.
		return true
	default:
		return !t.running && !phase.InFlight()
	}
}

// delegatesMayWaitLocked reports whether the thread, with no request,
// holds a run that may wait only for people in its delegates' children:
// with ClientAnswers such a run, as one that waits on its own question,
// is let go when idle (see retireWaiting).
func (h *Handler) delegatesMayWaitLocked(t *thread) bool {
	select {
	case <-t.ready:
	default:
		return false
	}
	_, ok := t.r.(PeopleWaiter)
	return ok && h.opts.ClientAnswers && t.users == 0 && t.err == nil && t.r.Snapshot().Phase == contract.PhaseAwaitingTools
}

// retireWaiting retires the threads of those, idle for d, whose run
// waits only for people, asked without the handler's lock (the agent answers from its
// loop), and returns them. The handler asks for itself, with no client's
// context: a thread whose runner cannot tell is kept.
func (h *Handler) retireWaiting(threads []*thread, d time.Duration) []*thread {
	var out []*thread
	for _, t := range threads {
		if waits, err := t.r.(PeopleWaiter).WaitsOnlyForPeople(context.Background()); err != nil || !waits {
			continue
		}
		h.mu.Lock()
		if h.threads[t.key] == t && h.delegatesMayWaitLocked(t) && time.Since(t.idle) >= d {
			h.retireLocked(t)
			out = append(out, t)
		}
		h.mu.Unlock()
	}
	return out
}

// evictLocked closes the thread idle the longest, of user's threads when
// user is not empty, to make room; it reports whether there was one.
func (h *Handler) evictLocked(user string) bool {
	var oldest *thread
	for _, t := range h.threads {
		if user != "" && t.user != user {
			continue
		}
		if h.idleLocked(t) && (oldest == nil || t.idle.Before(oldest.idle)) {
			oldest = t
		}
	}
	if oldest == nil {
		return false
	}
	h.retireLocked(oldest)
	h.closing.Add(1)
	go func() {
		defer h.closing.Done()
		h.closeThread(oldest, false)
	}()
	return true
}

// userAtCapLocked says user's live threads are at MaxThreadsPerUser.
func (h *Handler) userAtCapLocked(user string) bool {
	most := h.opts.MaxThreadsPerUser
	if user == "" || most <= 0 {
		return false
	}
	n := 0
	for _, t := range h.threads {
		if t.user == user {
			n++
		}
	}
	return n >= most
}

// retireLocked takes a thread out of the registry before it is closed;
// a new thread of the same id opens once the close is done.
func (h *Handler) retireLocked(t *thread) {
	delete(h.threads, t.key)
	h.retiring[t.key] = t
}

// closeFailedLocked retires t, whose runner refuses all work, and closes
// it in the background.
func (h *Handler) closeFailedLocked(t *thread) {
	h.retireLocked(t)
	h.closing.Add(1)
	go func() {
		defer h.closing.Done()
		if err := h.closeThread(t, false); err != nil {
			h.opts.Logger.Warn("wire: close failed thread", "thread", t.key, "err", err)
		}
	}()
}

// closeIfFailed closes t once its run's Submit has returned, if its
// runner now refuses all work: a run the store's failure ended publishes
// no end, so streams that follow the thread's events (one that steered
// or answered the run, a reconnect) would wait for good; a closed thread
// ends them with what the store holds. The next request opens it again.
func (h *Handler) closeIfFailed(t *thread) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed && h.threads[t.key] == t && h.failedLocked(t) {
		h.closeFailedLocked(t)
	}
}

// closeThread closes t's runner; with leave, a runner that can leaves its
// run in flight (Leaver) and t's streams are broken off.
func (h *Handler) closeThread(t *thread, leave bool) error {
	lv, ok := t.r.(Leaver)
	leave = leave && ok
	// Set before the log closes: the streams it wakes look at it.
	t.left.Store(leave)
	t.stop()
	t.log.close()
	var err error
	if leave {
		err = lv.Leave()
	} else {
		err = t.r.Close()
	}
	h.mu.Lock()
	if h.retiring[t.key] == t {
		delete(h.retiring, t.key)
	}
	h.mu.Unlock()
	close(t.closed)
	return err
}

// retireIdle retires, and returns, the threads that nothing has held for
// d by now.
func (h *Handler) retireIdle(now time.Time, d time.Duration) []*thread {
	var idle, waiting []*thread
	h.mu.Lock()
	for _, t := range h.threads {
		switch {
		case now.Sub(t.idle) < d:
		case h.idleLocked(t):
			h.retireLocked(t)
			idle = append(idle, t)
		case h.delegatesMayWaitLocked(t):
			waiting = append(waiting, t)
		}
	}
	h.mu.Unlock()
	return append(idle, h.retireWaiting(waiting, d)...)
}

// reap closes the threads idle for IdleTimeout, until the handler closes.
func (h *Handler) reap() {
	defer h.closing.Done()
	tick := time.NewTicker(max(h.opts.IdleTimeout/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-h.quit:
			return
		case now := <-tick.C:
			for _, t := range h.retireIdle(now, h.opts.IdleTimeout) {
				if err := h.closeThread(t, false); err != nil {
					h.opts.Logger.Warn("wire: close idle thread", "thread", t.key, "err", err)
				}
			}
		}
	}
}

// claim marks the thread as running a run, unless a run is in flight or
// the handler is closing; the caller then starts the run and calls
// h.runs.Done and unclaim when it returns.
func (h *Handler) claim(t *thread) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	snap := t.r.Snapshot()
	if h.closed || h.draining || t.running || snap.Phase.InFlight() {
		return false
	}
	t.running = true
	t.returned = make(chan struct{})
	t.claimedAfter = snap.RunID
	h.runs.Add(1)
	return true
}

// claimWait is what claimWhenReturned came to.
type claimWait int

const (
	// claimRefused: a run is in flight that the message cannot start
	// after, or the handler is closing.
	claimRefused claimWait = iota
	// claimed: the caller claimed the thread, as with claim.
	claimed
	// claimStarted: the run claimed before started meanwhile; the
	// message may steer it.
	claimStarted
)

// claimWhenReturned is claim, except that it waits rather than refuse a
// message as if a run were in flight: when the thread's claimed run has
// ended but its Submit has not returned yet (a tool that ignores its
// context may hold it for long), for that; when the claimed run has not
// started yet (its runner does work of its own first), for it to start,
// so that the message steers it rather than wait for the whole run. It
// gives up when ctx ends. gone is the run the caller's steer was refused
// for as it had ended ("" when none was): that run is waited for rather
// than steered again while a snapshot still shows it in flight, but a
// run in flight other than it (another post started the next run
// between the refused steer and this claim) is to be steered, as the
// message would have steered it had it arrived a moment later.
func (h *Handler) claimWhenReturned(ctx context.Context, t *thread, gone string) claimWait {
	_, steers := t.r.(SteerRunner)
	steerable := func(snap contract.RunSnapshot) bool {
		return steers && snap.Phase.InFlight() && (gone == "" || snap.RunID != gone)
	}
	for {
		// Read before the snapshot: a run that starts after is then
		// published to this channel.
		_, _, more, _, logClosed := t.log.read(t.log.end())
		if h.claim(t) {
			return claimed
		}
		h.mu.Lock()
		returned, after := t.returned, t.claimedAfter
		running := !h.closed && t.running
		h.mu.Unlock()
		snap := t.r.Snapshot()
		switch {
		case !running:
			return claimRefused
		case steerable(snap):
			return claimStarted
		case snap.Phase.InFlight() && !steers:
			return claimRefused
		}
		// Nothing to steer: the claimed run has not started, or it is the
		// run gone, ended but not yet returned.
		if snap.RunID != after || logClosed {
			more = nil // the claimed run ended: only its return is waited for
		}
		select {
		case <-returned:
		case <-more:
			if steerable(t.r.Snapshot()) {
				return claimStarted
			}
		case <-ctx.Done():
			return claimRefused
		}
	}
}

// returnedOf is closed once the Submit of the run claimed on t, if any,
// has returned.
func (h *Handler) returnedOf(t *thread) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.running {
		return t.returned
	}
	done := make(chan struct{})
	close(done)
	return done
}

func (h *Handler) unclaim(t *thread) {
	h.mu.Lock()
	t.running = false
	close(t.returned)
	t.idle = time.Now()
	h.mu.Unlock()
}

// history returns the thread's events as one stream, and the log
// position after them: the committed events before what the log holds,
// from the store, then what delegates still ask people that neither
// holds, then the log, deltas included.
func (t *thread) history(ctx context.Context) ([]contract.RunEvent, int, error) {
	// The delegates are asked before the log is read: a question asked
	// in between is then in the log, once, rather than also after end.
	open, err := t.openSubflowAsks(ctx)
	if err != nil {
		return nil, 0, err
	}
	// The store is read before the log too: what the run commits in
	// between is then in the log, after the delegates' events it holds,
	// rather than in the store's part, before them.
	stored, err := t.r.EventsSince(ctx, 0)
	if err != nil {
		return nil, 0, err
	}
	logged, end := t.log.snapshot()
	// The log's first event of the thread's own run begins it: a
	// committed event, or deltas that follow the committed event they
	// are numbered with. A delegate's events before it (a thread opened
	// while a delegate runs) are numbered by the delegate's session and
	// say nothing of where the log begins.
	out := slices.Clip(stored)
	if i := slices.IndexFunc(logged, func(ev contract.RunEvent) bool { return len(ev.Subflow) == 0 }); i >= 0 {
		cut := logged[i].Seq
		if logged[i].Delta > 0 {
			cut++
		}
		out = nil
		for _, ev := range stored {
			if ev.Seq < cut {
				out = append(out, ev)
			}
		}
	}
	out, err = t.withDelegated(ctx, out, logged)
	if err != nil {
		return nil, 0, err
	}
	out = append(out, subflowAsks(open, slices.Concat(out, logged))...)
	return append(out, logged...), end, nil
}

// subflowAsks returns the questions and approval requests delegated runs
// wait on that logged lacks: the thread's store holds only its own
// session's events, so after a restart they are nowhere else.
func subflowAsks(asks, logged []contract.RunEvent) []contract.RunEvent {
	if len(asks) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, ev := range logged {
		if len(ev.Subflow) > 0 && (ev.Kind == contract.EvQuestionAsked || ev.Kind == contract.EvApprovalRequested) {
			seen[string(ev.Kind)+" "+track.SubflowCallID(ev)] = true
		}
	}
	var out []contract.RunEvent
	for _, ev := range asks {
		if !seen[string(ev.Kind)+" "+track.SubflowCallID(ev)] {
			out = append(out, ev)
		}
	}
	return out
}

// openSubflowAsks is what the thread's delegated runs still wait on
// people for (SubflowAsker), none when its runner cannot tell.
func (t *thread) openSubflowAsks(ctx context.Context) ([]contract.RunEvent, error) {
	sa, ok := t.r.(SubflowAsker)
	if !ok {
		return nil, nil
	}
	return sa.SubflowAsks(ctx)
}

// letGo retires t, the caller being its only user, when several handlers
// share the store (Owner is set) and t holds nothing: no run. Such a
// thread was opened before its session was stored, so its runner holds
// no session lock; kept, it would answer the thread's requests here
// while another handler drives the thread. It reports whether it let t
// go; the next request for the thread opens it again, and is handed to
// its driver.
func (h *Handler) letGo(t *thread) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.opts.Owner == nil || h.closed || h.threads[t.key] != t || t.users != 1 || t.running || t.r.Snapshot().Phase.InFlight() {
		return false
	}
	h.retireLocked(t)
	h.closing.Add(1)
	go func() {
		defer h.closing.Done()
		if err := h.closeThread(t, false); err != nil {
			h.opts.Logger.Warn("wire: close thread", "thread", t.key, "err", err)
		}
	}()
	return true
}

// failedLocked reports whether t opened and its runner refuses all
// further work (FailedRunner).
func (h *Handler) failedLocked(t *thread) bool {
	select {
	case <-t.ready:
	default:
		return false
	}
	fr, ok := t.r.(FailedRunner)
	return t.err == nil && ok && fr.Failed() != nil
}
