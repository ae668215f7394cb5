package mcp

import (
	"context"
	"time"
)

// startReport starts the listing that reports the server's new tools to
// Server.OnToolsChanged, unless one is under way (it lists again for the
// notices that come meanwhile) or there is no one to report to. A notice
// that comes during the handshake, before Connect has a connection to
// list with, starts none: the first listing after Connect has the change.
// With s.mu held.
func (s *Source) startReport() {
	if s.srv.OnToolsChanged == nil || s.closed || s.reporting || s.conn == nil {
		return
	}
	s.reporting = true
	s.reportDone.Add(1)
	go s.report()
}

// report lists the tools and reports them, again as long as notices came
// while it did, so the last report has the newest list. A listing that
// fails is not reported (Tools logged why); it still counts as done for
// the calls that wait on it, which must not wait for a server that does
// not answer.
func (s *Source) report() {
	defer s.reportDone.Done()
	for {
		s.mu.Lock()
		changes := s.changes
		s.mu.Unlock()
		tools, err := s.Tools(s.life)
		if err == nil && s.life.Err() == nil {
			s.srv.OnToolsChanged(s.life, tools)
		}
		s.mu.Lock()
		s.reported = changes
		close(s.reports)
		s.reports = make(chan struct{})
		if s.changes == changes || s.closed {
			s.reporting = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}

// noticesSeen is the count of the server's tool-list change notices so
// far, which a call takes before it is sent (see awaitReport).
func (s *Source) noticesSeen() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changes
}

// awaitReport waits, when the server announced a change since the count
// before, until a report covers it, so that the result of a call that
// changed the server's tools reaches the host after the new list did.
// The wait is bounded by ctx, by Close, and by ListTimeout: a host busy
// with the report for longer than a listing may take does not hold the
// call's result back further.
func (s *Source) awaitReport(ctx context.Context, before uint64) {
	if s.srv.OnToolsChanged == nil {
		return
	}
	timer := time.NewTimer(s.srv.ListTimeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		changes, reported, reports := s.changes, s.reported, s.reports
		s.mu.Unlock()
		if changes == before || reported >= changes {
			return
		}
		select {
		case <-reports:
		case <-ctx.Done():
			return
		case <-s.life.Done():
			return
		case <-timer.C:
			return
		}
	}
}
