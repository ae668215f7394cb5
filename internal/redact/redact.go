package redact

import (
	"regexp"
	"strings"
)

var (
	urls = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]+`)
	// Credentials: what follows Bearer or Basic, when it has the digit or
	// padding that credentials have and prose lacks, and the length
	// (minCredential) that "basic 4k" lacks; the value of a
	// key=value or JSON pair naming a key, token, secret or password, in
	// any style (api_key, x-api-key, OPENAI_API_KEY, "client_secret": );
	// and the prefixed keys providers and clouds issue.
	secrets = regexp.MustCompile(strings.Join([]string{
		`((?i:\b(?:bearer|basic))\s+)[A-Za-z._~+/-]*[0-9=][A-Za-z0-9._~+/=-]*`,
		`((?i:\b(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|access[_-]?token|token|secret|password|passwd|key))"?\s*[=:]\s*"?)[^\s"'&,]+`,
		`\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}`,
		`\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{8,}`,
		`\b(?:r8|fw|npm)_[A-Za-z0-9]{20,}`,
		`\b(?:pplx|glpat)-[A-Za-z0-9_-]{20,}`,
		`\bya29\.[A-Za-z0-9_-]{20,}`,
		`\bAIza[0-9A-Za-z_-]{20,}`,
		`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
		`\bgh[pousr]_[A-Za-z0-9]{20,}`,
		`\bgithub_pat_[A-Za-z0-9_]{20,}`,
		`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`,
		`\bhf_[A-Za-z0-9]{20,}`,
		`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
		`\b(?:xai|gsk)[-_][A-Za-z0-9]{20,}`,
	}, "|"))
)

// minCredential is the shortest text after Bearer or Basic taken for a
// credential: Basic's is the base64 of a user, a colon and a password.
const minCredential = 8

// Error returns msg with URLs replaced by "[url]" and credentials by
// "[redacted]".
func Error(msg string) string {
	msg = urls.ReplaceAllString(msg, "[url]")
	return secrets.ReplaceAllStringFunc(msg, func(m string) string {
		sub := secrets.FindStringSubmatch(m)
		switch {
		case sub[1] != "" && len(m)-len(sub[1]) < minCredential:
			return m
		case sub[1] != "":
			return sub[1] + "[redacted]"
		case sub[2] != "":
			return sub[2] + "[redacted]"
		}
		return "[redacted]"
	})
}
