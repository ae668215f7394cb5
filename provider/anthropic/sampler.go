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
// sonnet 4.0. The version ends at any character but a digit: Vertex AI
// dates its ids after an "@" ("claude-opus-4-5@20251101") and routers
// write the minor after a dot ("claude-opus-4.5").
var claudeVersion = regexp.MustCompile(`^claude-(opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2}))?(?:[^0-9]|$)`)

// claude is a Claude model's family and version.
type claude struct {
	family       string
	major, minor int
}

// routedName is a model's name in lower case with a router's
// "provider/" prefix taken off.
func routedName(model string) string {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// parseClaude reads model's family and version, for the names of Claude 4
// and later.
func parseClaude(model string) (claude, bool) {
	m := claudeVersion.FindStringSubmatch(routedName(model))
	if m == nil {
		return claude{}, false
	}
	major, _ := strconv.Atoi(m[2])
	minor, _ := strconv.Atoi(m[3])
	return claude{family: m[1], major: major, minor: minor}, true
}

// oneSampler says whether model refuses temperature and top_p together
// ("temperature and top_p cannot both be specified for this model"):
// Claude Opus 4.1 and every model from 4.5 on do.
func oneSampler(model string) bool {
	c, ok := parseClaude(model)
	return ok && (c.major > 4 || c.major == 4 && (c.minor >= 5 || c.minor == 1 && c.family == "opus"))
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
