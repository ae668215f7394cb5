package tracing

import (
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
)

// faultText is what a span says of a run's fault: its error without the
// URLs and credentials it may quote and, unless content is recorded,
// without the arguments of the call a loop guard fault quotes
// ("loop guard: the call NAME ARGS repeated N times"), which are
// content as much as the call's own attribute is.
func faultText(err *contract.RunError, content bool) string {
	msg := redact.Error(err.Error())
	if content || err.Kind != contract.KindLoop {
		return msg
	}
	const call, repeated = "the call ", " repeated "
	start, end := strings.Index(msg, call), strings.LastIndex(msg, repeated)
	if start < 0 || end < start {
		return msg
	}
	quoted := msg[start+len(call) : end]
	name, _, _ := strings.Cut(quoted, " ")
	alternating := ""
	if strings.HasSuffix(quoted, " alternating") {
		alternating = " alternating"
	}
	return msg[:start] + call + name + " …" + alternating + msg[end:]
}
