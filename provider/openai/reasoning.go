package openai

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/batonrt/baton/contract"
)

// family groups OpenAI's models by the request options they refuse.
type family int

const (
	// familyOther is any other model of OpenAI's: it gets what was
	// asked. Models on any other server are not told apart at all.
	familyOther family = iota
	// familyChat is OpenAI's models that do not reason: no
	// reasoning_effort.
	familyChat
	// familyO is the o-series: temperature and top_p only at their
	// default, no stop, no parallel_tool_calls; o1-mini and o1-preview
	// take no reasoning_effort either.
	familyO
	// familyGPT5 is gpt-5 and its mini, nano, codex and pro: temperature
	// and top_p only at their default, no stop.
	familyGPT5
	// familyGPT5Point is gpt-5.1 and later, which do not reason unless
	// asked: temperature and top_p only without reasoning, no stop.
	familyGPT5Point
)

var (
	oSeries       = regexp.MustCompile(`^o[1-9](-|$)`)
	oNoEffort     = regexp.MustCompile(`^o1-(mini|preview)(-|$)`)
	gpt5Chat      = regexp.MustCompile(`^gpt-5-chat(-|$)`)
	gpt5PointChat = regexp.MustCompile(`^gpt-5\.\d+-chat(-|$)`)
	gpt5          = regexp.MustCompile(`^gpt-5(-|$)`)
	gpt5Point     = regexp.MustCompile(`^gpt-5\.\d+(-|$)`)
	chatModel     = regexp.MustCompile(`^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-4|gpt-3\.5|gpt-35)(-|$)`)
	familyPattern = []struct {
		re  *regexp.Regexp
		fam family
	}{
		{oSeries, familyO}, {gpt5Chat, familyChat}, {gpt5, familyGPT5},
		// Which options the later chat variants refuse is not known.
		{gpt5PointChat, familyOther}, {gpt5Point, familyGPT5Point},
		{chatModel, familyChat},
	}
)

// modelName is a model's name as OpenAI spells it, in lower case, and
// for a fine-tuned model ("ft:o4-mini-2025-04-16:org:suffix:id") the name
// of the model it was tuned from, whose options it takes. Names are read
// only at OpenAI's own API, which knows no router's "provider/" prefix.
func modelName(model string) string {
	name := strings.ToLower(strings.TrimSpace(model))
	if base, ok := strings.CutPrefix(name, "ft:"); ok {
		name, _, _ = strings.Cut(base, ":")
	}
	return name
}

// modelFamily is the family of a model name.
func modelFamily(model string) family {
	name := modelName(model)
	for _, p := range familyPattern {
		if p.re.MatchString(name) {
			return p.fam
		}
	}
	return familyOther
}

// reasons says whether a request to a model of fam with thinking makes
// it reason, which is when it refuses temperature and top_p.
func (fam family) reasons(thinking contract.ThinkingLevel) bool {
	return fam == familyO || fam == familyGPT5 || (fam == familyGPT5Point && thinking != contract.ThinkingOff)
}

// defaultOnly says whether an option is left unset or set to its
// default, the only values a reasoning model takes.
func defaultOnly(v *float64) bool { return v == nil || *v == 1 }

// modelConflicts names the options the API answers with 400 for model:
// temperature, top_p, stop and parallel_tool_calls where it reasons, a
// thinking level where it does not. withTools says whether
// parallel_tool_calls would be sent (it is not without tools).
func modelConflicts(model string, thinking contract.ThinkingLevel, s contract.Sampling, withTools bool) []contract.FieldError {
	fam := modelFamily(model)
	var bad []contract.FieldError
	add := func(field, rule, got string) {
		bad = append(bad, contract.FieldError{Field: field, Reason: fmt.Sprintf("%s for %s, got %s", rule, model, got)})
	}
	if fam.reasons(thinking) {
		if !defaultOnly(s.Temperature) {
			add("Sampling.Temperature", "must be 1 or unset", fmt.Sprint(*s.Temperature))
		}
		if !defaultOnly(s.TopP) {
			add("Sampling.TopP", "must be 1 or unset", fmt.Sprint(*s.TopP))
		}
	}
	if fam == familyO || fam == familyGPT5 || fam == familyGPT5Point {
		if len(s.Stop) > 0 {
			add("Sampling.Stop", "must be unset: the API refuses stop sequences", fmt.Sprintf("%q", s.Stop))
		}
	}
	if fam == familyO && withTools && s.ParallelToolCalls != nil && !*s.ParallelToolCalls {
		add("Sampling.ParallelToolCalls", "must be unset: the API refuses parallel_tool_calls", "false")
	}
	if thinking != contract.ThinkingOff && (fam == familyChat || oNoEffort.MatchString(modelName(model))) {
		add("Thinking", "must be unset: the model does not take a reasoning effort", fmt.Sprintf("%q", thinking))
	}
	return bad
}

// withoutDefaults is s without the defaults a model of fam refuses to be
// told: temperature and top_p of 1 where it reasons, parallel tool calls
// on for the o-series. Leaving them off asks for the same.
func (fam family) withoutDefaults(thinking contract.ThinkingLevel, s contract.Sampling) contract.Sampling {
	if fam.reasons(thinking) {
		if defaultOnly(s.Temperature) {
			s.Temperature = nil
		}
		if defaultOnly(s.TopP) {
			s.TopP = nil
		}
	}
	if fam == familyO && s.ParallelToolCalls != nil && *s.ParallelToolCalls {
		s.ParallelToolCalls = nil
	}
	return s
}
