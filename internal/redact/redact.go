package redact

import "regexp"

var (
	urls = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]+`)
	// Credentials: bearer tokens, key=value pairs naming a key, token or
	// secret, and the prefixed keys the big providers issue.
	secrets = regexp.MustCompile(`(?i)(bearer\s+)[^\s"']+|((?:api[_-]?key|access[_-]?token|token|secret|password|key)\s*[=:]\s*)[^\s"'&,]+|\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}|\bAIza[0-9A-Za-z_-]{20,}`)
)

// Error returns msg with URLs replaced by "[url]" and credentials by
// "[redacted]".
func Error(msg string) string {
	msg = urls.ReplaceAllString(msg, "[url]")
	return secrets.ReplaceAllStringFunc(msg, func(m string) string {
		sub := secrets.FindStringSubmatch(m)
		switch {
		case sub[1] != "":
			return sub[1] + "[redacted]"
		case sub[2] != "":
			return sub[2] + "[redacted]"
		}
		return "[redacted]"
	})
}
