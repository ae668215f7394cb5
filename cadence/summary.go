package cadence

import (
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
)

// Summarize prints a step's effects as one stable line. Records store it
// and replay compares it, so it names everything a decision depends on
// and nothing that varies between equal runs. Persist effects are left
// out: they describe the step itself.
func Summarize(effects []contract.Effect) string {
	var b strings.Builder
	for _, e := range effects {
		if _, ok := e.(contract.Persist); ok {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		describeEffect(&b, e)
	}
	return b.String()
}

func describeEffect(b *strings.Builder, e contract.Effect) {
	b.WriteString(string(e.EffectKind()))
	switch e := e.(type) {
	case contract.Publish:
		b.WriteString(" " + string(e.Event.Kind) + "#" + strconv.FormatUint(e.Event.Seq, 10))
	case contract.InvokeModel:
		r := e.Request
		b.WriteString(" turn=" + strconv.Itoa(r.Turn) + " history=" + strconv.Itoa(r.History.Len()) + " tokens=" + strconv.Itoa(r.History.Tokens()) + " tools=" + strconv.Itoa(len(r.Tools)))
	case contract.RunTool:
		b.WriteString(" " + e.Call.ID + " " + e.Call.Name)
	case contract.StartDelegate:
		b.WriteString(" " + e.Call.ID + " " + e.Call.Name)
	case contract.RequestApproval:
		b.WriteString(" " + e.Call.ID + " " + e.Call.Name)
	case contract.AskHuman:
		b.WriteString(" " + e.Call.ID + " " + e.Call.Name)
	case contract.Compact:
		b.WriteString(" cut=" + strconv.Itoa(e.Cut))
	case contract.CancelInFlight:
		if e.Model {
			b.WriteString(" model")
		}
		for _, id := range e.CallIDs {
			b.WriteString(" " + id)
		}
	}
}
