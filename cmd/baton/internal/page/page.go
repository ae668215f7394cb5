package page

import (
	"embed"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed assets
var assets embed.FS

// assetPrefix is where the page's script, style and the AI SDK bundle
// are served; no thread's request path starts with it.
const assetPrefix = "/_page/"

// Wants reports whether a request is for the page rather than for the
// protocol handler: a plain GET of / (no thread, no cursor, no protocol)
// or a GET of one of its assets. A GET that says it carries a body is
// left to the protocol handler, which refuses it: net/http would wait
// for that body, with no deadline, before writing the page.
func Wants(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead || r.Body != http.NoBody {
		return false
	}
	if strings.HasPrefix(r.URL.Path, assetPrefix) {
		return true
	}
	return r.URL.Path == "/" && r.URL.RawQuery == "" && r.Header.Get("Last-Event-ID") == ""
}

// writeTimeout bounds writing each writePiece bytes of the page or one
// of its assets.
const (
	writeTimeout = 30 * time.Second
	writePiece   = 64 << 10
)

// Handler serves the page and its assets. They hold no secret, so they
// need no token: the page reads one from its URL's fragment
// (#token=...), which a browser never sends to the server, and sends it
// with every request it makes.
func Handler() http.Handler {
	return http.HandlerFunc(serve)
}

func serve(w http.ResponseWriter, r *http.Request) {
	name := "index.html"
	if rest, ok := strings.CutPrefix(r.URL.Path, assetPrefix); ok {
		name = path.Clean(rest)
	}
	b, err := assets.ReadFile("assets/" + name)
	if err != nil || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	h.Set("X-Content-Type-Options", "nosniff")
	// The page runs only its own scripts and talks only to this server.
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	if r.Method == http.MethodHead {
		return
	}
	// Anyone may ask for the page, token or not, and the AI SDK bundle
	// is larger than a socket's buffers: a client that stops reading is
	// cut off rather than holding the connection, and this goroutine, for
	// ever. Each piece has its own deadline, so a slow link still gets
	// the bundle.
	rc := http.NewResponseController(w)
	for len(b) > 0 {
		n := min(len(b), writePiece)
		_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(b[:n]); err != nil {
			return
		}
		b = b[n:]
	}
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	}
	return "text/html; charset=utf-8"
}
