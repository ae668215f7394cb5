package anthropic

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
)

// claudeVersion reads a Claude model name's family and version:
// "claude-sonnet-4-5-20250929" is sonnet 4.5, "claude-sonnet-4-20250514"
// sonnet 4.0.
var claudeVersion = regexp.MustCompile(`^claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:-|$)`)

// oneSampler says whether model refuses temperature and top_p together
// ("temperature and top_p cannot both be specified for this model"):
// Claude Opus 4.1 and every model from 4.5 on do. A router's
// "provider/" prefix is taken off the name first.
func oneSampler(model string) bool {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	m := claudeVersion.FindStringSubmatch(name)
	if m == nil {
		return false
	}
	major, _ := strconv.Atoi(m[2])
	minor, _ := strconv.Atoi(m[3])
	return major > 4 || major == 4 && (minor >= 5 || minor == 1 && m[1] == "opus")
}

// oneSamplerConflicts names top_p when model refuses it beside a
// temperature, both away from their default; one at its default is
// left off (see oneOfSamplers).
func oneSamplerConflicts(model string, s contract.Sampling) []contract.FieldError {
	if !oneSampler(model) || s.Temperature == nil || s.TopP == nil || *s.Temperature == 1 || *s.TopP == 1 {
		return nil
	}
	return []contract.FieldError{{Field: "Sampling.TopP", Reason: fmt.Sprintf("must be unset or 1 when Sampling.Temperature is set: %s refuses both", model)}}
}

// oneOfSamplers is s with temperature or top_p left off where model
// refuses both and one is at its default (1), which asks for the same.
func oneOfSamplers(model string, s contract.Sampling) contract.Sampling {
	if !oneSampler(model) || s.Temperature == nil || s.TopP == nil {
		return s
	}
	if *s.Temperature == 1 {
		s.Temperature = nil
	} else if *s.TopP == 1 {
		s.TopP = nil
	}
	return s
}
