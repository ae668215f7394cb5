package main

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres"
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
		return nil, nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	return store.New(b), b, nil
}

// advertiseURL is where other serve processes reach this one: --advertise,
// else the address it listens on when that names one host.
func advertiseURL(flag string, ln net.Listener) (string, error) {
	if flag != "" {
		u, err := url.Parse(flag)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("--advertise %q: want the URL other serve processes reach this one at, such as http://10.0.0.5:8080", flag)
		}
		return u.String(), nil
	}
	addr, ok := ln.Addr().(*net.TCPAddr)
	if !ok || addr.IP.IsUnspecified() {
		return "", fmt.Errorf("serve listens on every interface (%s) and shares its store: set --advertise to the URL other serve processes reach this one at", ln.Addr())
	}
	return "http://" + addr.String(), nil
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
