package tracing

import (
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
)

// faultText is what a span says of a run's fault: its error without the
// URLs and credentials it may quote and, unless content is recorded,
// without the content some faults quote: the arguments of the call a
// loop guard fault names, and the answer an output fault's verdict
// quotes.
func faultText(err *contract.RunError, content bool) string {
	msg := redact.Error(err.Error())
	if content {
		return msg
	}
	switch err.Kind {
	case contract.KindLoop:
		return loopText(msg)
	case contract.KindOutput:
		return outputText(msg)
	}
	return msg
}

// loopText leaves out the arguments of a loop guard fault ("loop guard:
// the call NAME ARGS repeated N times"), which are content as much as the
// call's own attribute is.
func loopText(msg string) string {
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

// outputText leaves out the verdict of an output fault ("final answer
// does not match the output schema "NAME": VERDICT"): a schema's verdict
// quotes the values of the answer it refused ("pattern: "4321" does not
// match ..."), and the answer is content. A message of another shape is
// cut after "output schema", where no answer is quoted yet.
func outputText(msg string) string {
	const schema = "output schema "
	i := strings.Index(msg, schema)
	if i < 0 {
		return msg
	}
	end := i + len(schema)
	if rest := msg[end:]; strings.HasPrefix(rest, `"`) {
		if n := strings.IndexByte(rest[1:], '"'); n >= 0 {
			end += n + 2
		}
	}
	return msg[:end] + ": …"
}
