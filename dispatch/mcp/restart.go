package mcp

import (
	"context"
	"fmt"
	"time"
)

// DefaultMaxRestarts and DefaultRestartWindow bound restarts when
// Server.MaxRestarts and Server.RestartWindow are zero.
const (
	DefaultMaxRestarts   = 5
	DefaultRestartWindow = time.Minute
)

// restartBackoff is the pause, after the last try ended, before the
// second restart within the window; each restart after it waits twice
// as long as the one before, up to maxRestartBackoff. The first restart
// does not wait: a server that was killed once is wanted back at once.
const (
	restartBackoff    = 250 * time.Millisecond
	maxRestartBackoff = 4 * time.Second
)

// restarts reports whether a connection that ends is made again: a
// command started again, a server over HTTP connected again.
func (s *Source) restarts() bool { return s.srv.MaxRestarts >= 0 }

// restartWords say in errors and log lines what making the connection
// again is for this server: a command is started again, a server over
// HTTP connected again, with a new session.
type restartWords struct {
	verb  string // prefixes the error of one try: "restart"
	done  string // "restarted", N times
	again string // "started again"
	next  string // what the next call does: "starts it again"
}

func (s *Source) words() restartWords {
	if s.srv.URL != "" {
		return restartWords{"reconnect", "reconnected", "connected again", "connects again"}
	}
	return restartWords{"restart", "restarted", "started again", "starts it again"}
}

// live returns the connection to use: the current one, or, when it has
// ended, a new one (a new run of a command, a new session with a server
// over HTTP), within the bounds on restarts. A call in flight when its
// connection ended is not retried: it fails, and the next call makes
// the connection again.
func (s *Source) live(ctx context.Context) (*conn, error) {
	s.mu.Lock()
	c, closed := s.conn, s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return nil, fmt.Errorf("mcp: server %q is closed", s.srv.Name)
	case !c.ended():
		return c, nil
	case !s.restarts():
		return nil, c.gone(s.srv.Name)
	}
	return s.restart(ctx, c)
}

// restartTimeout bounds one restart: starting the command or reaching
// the server, and the handshake, as a host bounds Connect.
const restartTimeout = 30 * time.Second

// restartTry is a restart under way, which every call that finds the
// connection ended waits for.
type restartTry struct {
	done chan struct{} // closed once conn or err is set
	conn *conn
	err  error
}

// restart connects again in place of the ended connection old, unless
// another call did so already. Calls that find it ended together wait
// for one restart, each no longer than its ctx allows: the restart is
// not the call's own, so a call that gives up neither stops it nor
// makes it count as failed, and one that hangs holds no call past its
// timeout.
func (s *Source) restart(ctx context.Context, old *conn) (*conn, error) {
	s.mu.Lock()
	current, closed, try := s.conn, s.closed, s.restarting
	if !closed && current == old && try == nil {
		try = &restartTry{done: make(chan struct{})}
		s.restarting = try
		s.tries.Add(1)
		go s.runRestart(try)
	}
	s.mu.Unlock()
	switch {
	case closed:
		return nil, fmt.Errorf("mcp: server %q is closed", s.srv.Name)
	case current != old:
		return current, nil
	}
	select {
	case <-try.done:
		return try.conn, try.err
	case <-ctx.Done():
		return nil, fmt.Errorf("mcp: %s %q: %w", s.words().verb, s.srv.Name, context.Cause(ctx))
	}
}

// runRestart makes the connection again for the calls waiting on try,
// after the backoff, unless the bound on restarts is reached. Close
// stops it.
func (s *Source) runRestart(try *restartTry) {
	defer s.tries.Done()
	ctx, cancel := context.WithTimeout(s.life, restartTimeout)
	defer cancel()
	s.mu.Lock()
	wait, err := s.nextRestart(time.Now())
	s.mu.Unlock()
	if err == nil {
		if err = sleep(ctx, wait); err != nil {
			err = fmt.Errorf("mcp: %s %q: %w", s.words().verb, s.srv.Name, err)
		}
	}
	if err == nil {
		try.conn, err = s.start(ctx)
	}
	if s.life.Err() != nil {
		try.conn, err = nil, fmt.Errorf("mcp: server %q is closed", s.srv.Name)
	}
	try.err = err
	s.mu.Lock()
	s.restarting = nil
	s.mu.Unlock()
	close(try.done)
}

// start connects again (runs the command again, or opens a new session
// with the server over HTTP) and makes it the current connection.
func (s *Source) start(ctx context.Context) (*conn, error) {
	s.mu.Lock()
	s.restarted = append(s.restarted, time.Now())
	s.mu.Unlock()
	c := s.newConn()
	if err := s.dial(ctx, c); err != nil {
		s.mu.Lock()
		s.lastEnd, s.lastEnded = c.why, time.Now()
		if c.why == "" {
			s.lastEnd = err.Error()
		}
		s.mu.Unlock()
		s.log.Error("mcp: the server was not "+s.words().again, "server", s.srv.Name, "err", err)
		return nil, fmt.Errorf("mcp: %s %q: %w", s.words().verb, s.srv.Name, err)
	}
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.conn = c
		// The new run or session may offer other tools than the last
		// did.
		s.stale = true
		s.changes++
	}
	s.mu.Unlock()
	if closed {
		c.close()
		return nil, fmt.Errorf("mcp: server %q is closed", s.srv.Name)
	}
	s.log.Warn("mcp: server "+s.words().again, "server", s.srv.Name)
	return c, nil
}

// nextRestart says how long to wait before the next restart, or why
// there is none: MaxRestarts restarts within the window already. Under
// mu.
func (s *Source) nextRestart(now time.Time) (time.Duration, error) {
	n := s.recentRestarts(now)
	switch {
	case n >= s.srv.MaxRestarts:
		w := s.words()
		return 0, fmt.Errorf("mcp: server %q is not %s: it was %s %d times within %v, and it last ended: %s",
			s.srv.Name, w.again, w.done, n, s.srv.RestartWindow, s.lastEnd)
	case n == 0:
		return 0, nil
	}
	backoff := min(restartBackoff<<(n-1), maxRestartBackoff)
	// Counted from the end of the last try rather than its start, so
	// that a start that is slow to fail is not followed by another at
	// once.
	return max(s.lastEnded.Add(backoff).Sub(now), 0), nil
}

// recentRestarts forgets the restarts that fell out of the window by
// now and counts the rest. Under mu.
func (s *Source) recentRestarts(now time.Time) int {
	kept := s.restarted[:0]
	for _, at := range s.restarted {
		if now.Sub(at) < s.srv.RestartWindow {
			kept = append(kept, at)
		}
	}
	s.restarted = kept
	return len(kept)
}

// endedWords say, for the log line of a connection that ended at now,
// what the next call does: make it again, or, with MaxRestarts restarts
// in the window already, nothing until enough of them fall out of it.
// Under mu.
func (s *Source) endedWords(now time.Time) string {
	w := s.words()
	n := s.recentRestarts(now)
	if n < s.srv.MaxRestarts {
		return "the next call " + w.next
	}
	// restarted is in time order: the restart that has to fall out of
	// the window for one more to be allowed is n-MaxRestarts from the
	// oldest. Rounded up, so that a call after the time given does make
	// the connection again.
	wait := s.restarted[n-s.srv.MaxRestarts].Add(s.srv.RestartWindow).Sub(now)
	wait = (wait + time.Second - 1).Truncate(time.Second)
	return fmt.Sprintf("not %s: it was %s %d times within %v, the most allowed, so its tools give error results until a call after %v %s",
		w.again, w.done, n, s.srv.RestartWindow, wait, w.next)
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
