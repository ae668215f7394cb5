package cadence

import (
	"strconv"

	"github.com/batonrt/baton/contract"
)

// Summarize prints a step's effects as one stable line. Records store it
// and replay compares it, so it names everything a decision depends on
// and nothing that varies between equal runs. Persist effects are left
// out: they describe the step itself.
func Summarize(effects []contract.Effect) string {
	// One buffer on the stack and one string at the end: the summary is
	// built on every step, so piecewise concatenation showed in profiles.
	// 512 bytes hold a reply's step with a batch of four calls (about
	// 300), which 256 did not.
	b := make([]byte, 0, 512)
	for _, e := range effects {
		if _, ok := e.(*contract.Persist); ok {
			continue
		}
		if len(b) > 0 {
			b = append(b, "; "...)
		}
		b = appendEffect(b, e)
	}
	return string(b)
}

func appendEffect(b []byte, e contract.Effect) []byte {
	b = append(b, e.EffectKind()...)
	switch e := e.(type) {
	case *contract.Publish:
		b = append(b, ' ')
		b = append(b, e.Event.Kind...)
		b = append(b, '#')
		b = strconv.AppendUint(b, e.Event.Seq, 10)
	case *contract.InvokeModel:
		r := e.Request
		b = append(b, " turn="...)
		b = strconv.AppendInt(b, int64(r.Turn), 10)
		b = append(b, " history="...)
		b = strconv.AppendInt(b, int64(r.History.Len()), 10)
		b = append(b, " tokens="...)
		b = strconv.AppendInt(b, int64(r.History.Tokens()), 10)
		b = append(b, " tools="...)
		b = strconv.AppendInt(b, int64(len(r.Tools)), 10)
	case *contract.RunTool:
		b = appendCall(b, e.Call)
	case *contract.StartDelegate:
		b = appendCall(b, e.Call)
	case *contract.RequestApproval:
		b = appendCall(b, e.Call)
	case *contract.AskHuman:
		b = appendCall(b, e.Call)
	case *contract.Compact:
		b = append(b, " cut="...)
		b = strconv.AppendInt(b, int64(e.Cut), 10)
	case *contract.CancelInFlight:
		if e.Model {
			b = append(b, " model"...)
		}
		for _, id := range e.CallIDs {
			b = append(b, ' ')
			b = append(b, id...)
		}
	}
	return b
}

func appendCall(b []byte, c contract.ToolCall) []byte {
	b = append(b, ' ')
	b = append(b, c.ID...)
	b = append(b, ' ')
	return append(b, c.Name...)
}
