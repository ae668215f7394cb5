package page

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestWants(t *testing.T) {
	tests := []struct {
		method, target, lastEventID string
		want                        bool
	}{
		{"GET", "/", "", true},
		{"HEAD", "/", "", true},
		{"GET", "/_page/app.js", "", true},
		{"GET", "/?threadId=t1", "", false},
		{"GET", "/?protocol=ai-sdk", "", false},
		{"GET", "/", "7.2", false},
		{"GET", "/t1/stream?protocol=ai-sdk", "", false},
		{"POST", "/", "", false},
		{"POST", "/_page/app.js", "", false},
		{"OPTIONS", "/", "", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(tt.method, tt.target, nil)
		if tt.lastEventID != "" {
			r.Header.Set("Last-Event-ID", tt.lastEventID)
		}
		if got := Wants(r); got != tt.want {
			t.Errorf("%s %s (Last-Event-ID %q): Wants = %v, want %v", tt.method, tt.target, tt.lastEventID, got, tt.want)
		}
	}
}

func TestServe(t *testing.T) {
	tests := []struct {
		target, status, contentType, body string
	}{
		{"/", "200", "text/html; charset=utf-8", `<script type="module" src="/_page/app.js">`},
		{"/_page/app.js", "200", "text/javascript; charset=utf-8", `from "./ai.js"`},
		{"/_page/ai.js", "200", "text/javascript; charset=utf-8", "AbstractChat"},
		{"/_page/page.css", "200", "text/css; charset=utf-8", "#composer"},
		{"/_page/nothing.js", "404", "", ""},
		{"/_page/../page.go", "404", "", ""},
		{"/_page/", "404", "", ""},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		Handler().ServeHTTP(w, httptest.NewRequest("GET", tt.target, nil))
		if got := w.Result().Status[:3]; got != tt.status {
			t.Errorf("GET %s: status %s, want %s", tt.target, got, tt.status)
			continue
		}
		if tt.status != "200" {
			continue
		}
		h := w.Result().Header
		if got := h.Get("Content-Type"); got != tt.contentType {
			t.Errorf("GET %s: Content-Type %q, want %q", tt.target, got, tt.contentType)
		}
		if !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: the page's scripts are not confined: %v", tt.target, h)
		}
		if !strings.Contains(w.Body.String(), tt.body) {
			t.Errorf("GET %s: body lacks %q", tt.target, tt.body)
		}
	}
}

// Model and tool text reaches the page's DOM only as text.
func TestAppSetsNoHTML(t *testing.T) {
	b, err := assets.ReadFile("assets/app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"} {
		if strings.Contains(string(b), bad) {
			t.Errorf("app.js uses %s", bad)
		}
	}
}
