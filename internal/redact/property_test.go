package redact

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestErrorHidesCredentialsAnywhere: a credential of a known shape is
// hidden whatever text surrounds it, quoted, bracketed or run on.
func TestErrorHidesCredentialsAnywhere(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		body := rapid.StringMatching(`[A-Za-z0-9]{40}`).Draw(t, "body")
		upper := strings.ToUpper(body)
		secret := rapid.SampledFrom([]string{
			"sk-proj-" + body, "sk-ant-api03-" + body, "AKIA" + upper[:16], "ghp_" + body,
			"github_pat_" + body, "AIza" + body, "hf_" + body, "xoxb-" + body,
			"eyJ" + body[:12] + ".eyJ" + body[12:30] + "." + body[30:],
			"api_key=" + body, "OPENAI_API_KEY=" + body, "password: " + body, `"client_secret": "` + body + `"`,
			"Bearer 1" + body, "x-api-key: " + body,
		}).Draw(t, "secret")
		before := rapid.StringMatching(`([a-z .,;:()'"=\n]{0,12}[ .,;:()\[\]'"=\n])?`).Draw(t, "before")
		after := rapid.StringMatching(`[ .,;:()\[\]'"\n][a-z .,;:()'"]{0,12}`).Draw(t, "after")
		if got := Error(before + secret + after); strings.Contains(got, body[:16]) || strings.Contains(got, upper[:16]) {
			t.Fatalf("Error(%q) = %q keeps the credential", before+secret+after, got)
		}
	})
}
