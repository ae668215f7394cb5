package redact

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestErrorCredentialShapes covers the credentials users paste into
// configs and providers echo back in their errors.
func TestErrorCredentialShapes(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"openai project key", "invalid api key sk-proj-AbCdEf0123456789_xyz provided", "invalid api key [redacted] provided"},
		{"anthropic key", "x-api-key header sk-ant-api03-AbCdEf0123456789-_xyz is invalid", "x-api-key header [redacted] is invalid"},
		{"aws access key id", "The AWS Access Key Id AKIAIOSFODNN7EXAMPLE does not exist", "The AWS Access Key Id [redacted] does not exist"},
		{"aws session key id", "key ASIAIOSFODNN7EXAMPLE expired", "key [redacted] expired"},
		{"github classic token", "Bad credentials for ghp_16C7e42F292c6912E7710c838347Ae178B4a", "Bad credentials for [redacted]"},
		{"github fine-grained token", "token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz rejected", "token [redacted] rejected"},
		{"jwt", "invalid token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U in header",
			"invalid token [redacted] in header"},
		{"basic auth", "Authorization: Basic dXNlcjpodW50ZXIy rejected", "Authorization: Basic [redacted] rejected"},
		{"json api key", `request body {"api_key": "hunter2"} refused`, `request body {"api_key": "[redacted]"} refused`},
		{"huggingface token", "401 for hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "401 for [redacted]"},
		{"slack token", "not_authed xoxb-1234567890-abcdefghij", "not_authed [redacted]"},
		{"stripe key", "No such customer; key sk_live_51H8abcdEFGH1234ijkl", "No such customer; key [redacted]"},
		{"replicate token", "Authorization: Token r8_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab", "Authorization: Token [redacted]"},
		{"perplexity key", "invalid pplx-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdef", "invalid [redacted]"},
		{"fireworks key", "bad key fw_3ZAbCdEfGhIjKlMnOpQrStUv", "bad key [redacted]"},
		{"npm token", "E401 npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "E401 [redacted]"},
		{"gitlab token", "401 for glpat-AbCdEfGhIjKlMnOpQrSt", "401 for [redacted]"},
		{"google oauth token", "expired ya29.a0AfH6SMBxAbCdEfGhIjKlMnOp_qrstuv-wxyz", "expired [redacted]"},
		{"url with password", "dial https://user:hunter2@gateway.internal/v1 failed", "dial [url] failed"},
		{"ipv6 url", "Post http://[::1]:8080/v1/chat?token=abc: refused", "Post [url] refused"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Error(tt.in)); diff != "" {
			t.Errorf("%s: Error(%q) mismatch (-want +got):\n%s", tt.name, tt.in, diff)
		}
	}
}

// TestErrorKeepsOrdinaryText checks that text merely mentioning keys or
// tokens stays readable: an error redacted to nothing helps no one.
func TestErrorKeepsOrdinaryText(t *testing.T) {
	for _, in := range []string{
		"openai: invalid_request_error: unexpected token: '}' at position 12",
		"monkey=3 hotkey: ctrl",
		"the bearer token is missing",
		"max_tokens: 4096 exceeds the limit",
		"task-runner-failed after 3 attempts",
		"invalid Bearer credentials",
		"the basic plan does not include this model",
		"the basic 2-step plan does not include this model",
		"a basic 4k context",
		"duplicate key value violates unique constraint pk_users_email",
	} {
		if diff := cmp.Diff(in, Error(in)); diff != "" {
			t.Errorf("Error(%q) changed ordinary text (-want +got):\n%s", in, diff)
		}
	}
}
