package wire

import (
	"net/http"
	"strings"
	"testing"
)

// The scheme of an Authorization header is case-insensitive (RFC 9110,
// 11.1): a client that writes "bearer" carries the token all the same.
func TestHandlerTakesTheBearerSchemeInAnyCase(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{Token: "s3cret"}})
	tests := []struct {
		auth string
		code int
	}{
		{"bearer s3cret", http.StatusOK},
		{"BEARER s3cret", http.StatusOK},
		{"bearer S3CRET", http.StatusUnauthorized},
		{"Bearer  s3cret", http.StatusUnauthorized},
		{"Bearers3cret", http.StatusUnauthorized},
	}
	for i, tt := range tests {
		thread := "t" + strings.Repeat("x", i)
		code, _, _ := e.do("POST", "", runBody(thread, "hi"), map[string]string{"Content-Type": "application/json", "Authorization": tt.auth})
		if code != tt.code {
			t.Errorf("Authorization %q: %d, want %d", tt.auth, code, tt.code)
		}
	}
}
