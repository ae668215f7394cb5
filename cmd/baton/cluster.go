package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/wire"
)

// serveStore opens serve's store. A PostgreSQL store is shared with other
// serve processes, so it comes with the backend, which records where this
// process can be reached for the sessions it drives and finds the others.
func (fs *flagSet) serveStore(ctx context.Context) (store.Store, *postgres.Backend, error) {
	dir, err := fs.storeDir()
	if err != nil {
		return nil, nil, err
	}
	if !isURL(dir) {
		st, _, err := fs.openStore()
		return st, nil, err
	}
	b, err := postgres.OpenBackend(ctx, dir)
	if err != nil {
		return nil, nil, fmt.Errorf("serve: open store %s: %w", storeName(dir), err)
	}
	return store.New(b), b, nil
}

// advertiseURL is where other serve processes reach this one: --advertise,
// else the address it listens on when that names one host.
func advertiseURL(flag string, listen net.Addr) (string, error) {
	if flag != "" {
		u, err := url.Parse(flag)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("serve: --advertise %q: want the URL other serve processes reach this one at, such as http://10.0.0.5:8080", flag)
		}
		return u.String(), nil
	}
	addr, ok := listen.(*net.TCPAddr)
	if !ok || addr.IP.IsUnspecified() {
		return "", fmt.Errorf("serve: listening on every interface (%s) and shares its store: set --advertise to the URL other serve processes reach this one at", listen)
	}
	return "http://" + addr.String(), nil
}

// cleartextToken says when handing requests to other serve processes
// would send the bearer token unencrypted beyond this machine.
func cleartextToken(advertised, token string) bool {
	u, err := url.Parse(advertised)
	if err != nil || token == "" || u.Scheme != "http" {
		return false
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	return host != "localhost" && (ip == nil || !ip.IsLoopback())
}

// ownerLookup finds the serve process that drives a thread's session, for
// the handler to hand it the thread's requests.
func ownerLookup(b *postgres.Backend, namespace string) func(context.Context, string) (*url.URL, error) {
	return func(ctx context.Context, threadID string) (*url.URL, error) {
		addr, err := b.Owner(ctx, namespace+threadID)
		if err != nil {
			return nil, err
		}
		return url.Parse(addr)
	}
}

// drivenElsewhere reports, as an error wrapping store.ErrLocked, a new
// thread whose session another process sharing the store holds, for the
// handler to hand it the thread's requests. That process took the
// thread's first message a moment ago and has stored nothing yet: a run
// started here would fail on its lock. The lock tells it, not the
// address the owner records next, which may not be there yet (the
// handler looks for that again). A stored session's lock is taken when
// its thread opens, which tells the same.
func (c serveConfig) drivenElsewhere(ctx context.Context, st store.Store, threadID string) error {
	if c.shared == nil {
		return nil
	}
	id := c.namespace + threadID
	if _, err := st.Head(ctx, id); !errors.Is(err, store.ErrNotFound) {
		return nil
	}
	locked, err := c.shared.Locked(ctx, id)
	switch {
	case err != nil:
		return fmt.Errorf("serve: thread %q: %w", threadID, err)
	case locked:
		return fmt.Errorf("serve: thread %q is driven by another process: %w", threadID, store.ErrLocked)
	}
	return nil
}

// adoptEvery is how often a serve process sharing its store looks for
// sessions whose process died while driving them.
const adoptEvery = 2 * time.Second

// adoptOrphans opens, every adoptEvery until ctx ends, the threads of
// namespace whose serve process died holding them, so that their runs in
// flight resume here without waiting for a client to ask. Processes that
// look at once race for each session's lock; the losers leave it. A
// delegate's session the dead process left is not a thread: its run
// resumes with its parent's thread. users says each thread key begins
// with its user's name and a slash.
func (a *app) adoptOrphans(ctx context.Context, h *wire.Handler, b *postgres.Backend, namespace string, users bool) {
	tick := time.NewTicker(adoptEvery)
	defer tick.Stop()
	var listErr string
	failed := map[string]string{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		orphans, err := b.Orphans(ctx)
		if err != nil {
			// Said once, not every tick, while it lasts.
			if msg := err.Error(); msg != listErr && ctx.Err() == nil {
				fmt.Fprintf(a.stderr, "baton: looking for threads of stopped processes: %s\n", safeLine(msg))
				listErr = msg
			}
			continue
		}
		listErr = ""
		for _, session := range orphans {
			thread, ok := strings.CutPrefix(session, namespace)
			if !ok || delegateOf(thread, users) {
				continue
			}
			err := h.Open(ctx, thread)
			if err == nil || errors.Is(err, store.ErrLocked) || ctx.Err() != nil {
				delete(failed, thread)
				continue
			}
			// Tried again each tick; said once per thread and error. Both
			// come from the shared store or the thread's opener, escaped.
			if msg := err.Error(); failed[thread] != msg {
				fmt.Fprintf(a.stderr, "baton: resume thread %s of a stopped process: %s\n", safeLine(thread), safeLine(msg))
				failed[thread] = msg
			}
		}
	}
}

// delegateOf reports whether a thread key names a delegate's session, as
// no thread's does (wire refuses such thread ids): with users, the id
// after the user's name is looked at, as one that looks like a step
// ("alice/1.2") names a thread.
func delegateOf(key string, users bool) bool {
	if users {
		_, key, _ = strings.Cut(key, "/")
	}
	return contract.MayBeChildSession(key)
}

// startAdopting runs adoptOrphans while the store is shared; the func it
// returns stops it and waits for it.
func (a *app) startAdopting(ctx context.Context, h *wire.Handler, cfg serveConfig) (stop func()) {
	if cfg.shared == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.adoptOrphans(ctx, h, cfg.shared, cfg.namespace, len(cfg.users) > 0)
	}()
	return func() {
		cancel()
		<-done
	}
}
