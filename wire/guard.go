package wire

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/aisdk"
)

// guard refuses what a handler exposed beyond one trusted client must not
// accept, and answers CORS preflights; it reports whether the request
// goes on, and whose token it carries.
func (h *Handler) guard(w http.ResponseWriter, r *http.Request) (string, bool) {
	if r.Method != http.MethodPost && r.Body != http.NoBody {
		// Only a POST's body is read. net/http waits, with no deadline,
		// for any other's before it writes the answer, so a client that
		// declares one and never sends it would hold the connection, and
		// the thread it names, for ever.
		refuse(w, http.StatusBadRequest, "wire: a %s request carries no body", r.Method)
		return "", false
	}
	if !h.tokened() && r.Host != "" && !isLoopback(hostOnly(r.Host)) {
		// Without a token only loopback is trusted: a request naming
		// another host is a page whose name an attacker points at
		// 127.0.0.1 (DNS rebinding), and a same-origin GET carries no
		// Origin to refuse it by.
		refuse(w, http.StatusMisdirectedRequest, "wire: host %q is not served without a token", r.Host)
		return "", false
	}
	origin := r.Header.Get("Origin")
	if origin != "" && !h.sameOrigin(origin, r) {
		if !h.allowedOrigin(origin) {
			refuse(w, http.StatusForbidden, "wire: origin %q is not allowed", origin)
			return "", false
		}
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Add("Vary", "Origin")
		w.Header().Set("Access-Control-Expose-Headers", exposeHeaders)
	}
	if r.Method == http.MethodOptions {
		if r.Header.Get("Access-Control-Request-Method") == "" {
			w.Header().Set("Allow", "GET, POST, OPTIONS")
			w.WriteHeader(http.StatusNoContent)
			return "", false
		}
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
		w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Authorization, Last-Event-ID, Accept")
		w.Header().Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return "", false
	}
	user, ok := h.authenticate(r)
	if h.tokened() && !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="baton"`)
		refuse(w, http.StatusUnauthorized, "wire: a bearer token is required")
		return "", false
	}
	if r.Header.Get(forwardedHeader) != "" && r.Header.Get(userHeader) != user {
		// The handler that handed the request on took its token for
		// another user's: served here, it would reach a thread of a
		// user other than the one it was looked up for.
		h.opts.Logger.Warn("wire: a forwarded request's token is another user's here; the handlers' users differ", "sender", r.Header.Get(userHeader), "here", user)
		refuse(w, http.StatusMisdirectedRequest, "wire: the handlers serving this store do not agree on whose token this is")
		return "", false
	}
	if r.Method == http.MethodPost {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			// A page may POST text/plain cross-site without asking;
			// JSON needs a preflight, which the origin check answers.
			refuse(w, http.StatusUnsupportedMediaType, "wire: Content-Type must be application/json")
			return "", false
		}
	}
	return user, true
}

// exposeHeaders are the headers, beyond the CORS-safelisted ones, that a
// page on an allowed origin reads: the browser hides the rest from it.
var exposeHeaders = strings.Join([]string{aisdk.StreamHeader, chainHeader, "Retry-After", "WWW-Authenticate", "Allow"}, ", ")

// refuse answers a request refused before its body is read and closes
// its connection: the server would otherwise wait, with no deadline, to
// drain a body the client may never send (net/http reads the rest of an
// unread body after the handler returns, whatever Connection says).
func refuse(w http.ResponseWriter, code int, format string, args ...any) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	httpError(w, code, format, args...)
}

func (h *Handler) allowedOrigin(origin string) bool {
	return slices.Contains(h.opts.AllowedOrigins, "*") || slices.Contains(h.opts.AllowedOrigins, strings.TrimSuffix(origin, "/"))
}

// sameOrigin reports whether a page served by this very host sent the
// request. Without a token only a loopback host counts, so that a page
// whose name an attacker points at 127.0.0.1 (DNS rebinding) is not taken
// for the handler's own.
func (h *Handler) sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Host != r.Host {
		return false
	}
	return h.tokened() || isLoopback(u.Hostname())
}

// hostOnly is a Host header's name or address without its port.
func hostOnly(hostport string) string {
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		return host
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

func isLoopback(host string) bool {
	// Names are case-insensitive, and may end in the root's dot.
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkThreadID refuses ids a session cannot have, a terminal would
// render as commands, or a reader could not tell from another: empty,
// too long, not UTF-8, with control characters or invisible ones
// (formatting such as bidirectional overrides and zero-width characters,
// line and paragraph separators); and ids that may name a delegate
// call's session, which only its parent's run drives, or begin as one
// whose parent's id was cut does, whose own delegates' sessions could be
// named as that parent's.
func (h *Handler) checkThreadID(id string) error {
	i := strings.IndexFunc(id, invisible)
	switch {
	case id == "":
		return fmt.Errorf("wire: thread id is empty")
	case len(id) > h.opts.MaxThreadID:
		return fmt.Errorf("wire: thread id is %d bytes, at most %d", len(id), h.opts.MaxThreadID)
	case !utf8.ValidString(id):
		return fmt.Errorf("wire: thread id is not UTF-8")
	case strings.ContainsFunc(id, unicode.IsControl):
		return fmt.Errorf("wire: thread id %q holds a control character", id)
	case i >= 0:
		r, _ := utf8.DecodeRuneInString(id[i:])
		return fmt.Errorf("wire: thread id %q holds an invisible character (%U)", id, r)
	case contract.MayBeChildSession(id):
		return fmt.Errorf("wire: thread id %q may name a delegate's session (ending \"/STEP.INDEX\" or beginning \"~DIGEST:\"): a delegated run is read through its parent's thread", id)
	}
	return nil
}

// invisible reports the characters, other than controls, that are not
// shown as themselves.
func invisible(r rune) bool { return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) }
