package main

import (
	"fmt"
	"net/url"
	"strings"
)

// checkServeLimits refuses the values of serve's limits that the handler
// would silently replace by its defaults (zero or less threads, an idle
// timeout of zero or less) or that mean nothing (a negative drain), so
// the server runs with the limits its command line says.
func checkServeLimits(cfg serveConfig) error {
	switch {
	case cfg.idle <= 0:
		return fmt.Errorf("serve: --idle-timeout must be positive, got %v", cfg.idle)
	case cfg.maxThreads <= 0:
		return fmt.Errorf("serve: --max-threads must be positive, got %d", cfg.maxThreads)
	case cfg.maxUserThreads < 0:
		return fmt.Errorf("serve: --max-threads-per-user must be 0 (no cap but --max-threads) or more, got %d", cfg.maxUserThreads)
	case cfg.maxUserThreads > 0 && len(cfg.users) == 0:
		return fmt.Errorf("serve: --max-threads-per-user needs --tokens: without users every request is one user's")
	case cfg.drainTimeout < 0:
		return fmt.Errorf("serve: --drain-timeout must be 0 (leave runs in flight at once) or more, got %v", cfg.drainTimeout)
	}
	return nil
}

// parseOrigins reads --allow-origin. A browser's Origin header is
// scheme://host[:port] exactly, so an entry with a path (a trailing
// slash), a query or no scheme would match no page: it is refused rather
// than leave the server refusing the page it was meant to allow.
func parseOrigins(flag string) ([]string, error) {
	var origins []string
	for o := range strings.SplitSeq(flag, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		// "null" is the origin of sandboxed frames and file pages.
		if o != "*" && o != "null" {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
				u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(o, "?") || strings.HasSuffix(o, "#") {
				return nil, fmt.Errorf("serve: --allow-origin %q: want an origin, scheme://host[:port] with no path (such as https://app.example), * or null", o)
			}
		}
		origins = append(origins, o)
	}
	return origins, nil
}
