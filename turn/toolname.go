package turn

import (
	"strings"

	"github.com/batonrt/baton/contract"
)

// NormalizeToolName returns the tool name the model meant: trimmed, with a
// namespace prefix such as "functions." stripped, and with the case of a
// known tool name. An unknown name comes back cleaned but otherwise as
// given, so the reducer can answer "unknown tool".
func NormalizeToolName(name string, known []string) string {
	name = strings.TrimSpace(name)
	if match, ok := lookup(name, known); ok {
		return match
	}
	if i := strings.LastIndexAny(name, ".:/"); i >= 0 && i < len(name)-1 {
		name = strings.TrimSpace(name[i+1:])
	}
	if match, ok := lookup(name, known); ok {
		return match
	}
	return name
}

func lookup(name string, known []string) (string, bool) {
	for _, k := range known {
		if k == name {
			return k, true
		}
	}
	// Only a name that matches one tool in any case is that tool.
	match, n := "", 0
	for _, k := range known {
		if strings.EqualFold(k, name) {
			match, n = k, n+1
		}
	}
	return match, n == 1
}

// InvalidNamePrefix starts the name WireToolName gives a call whose name
// the APIs refuse.
const InvalidNamePrefix = "invalid_name_"

// WireToolName is the name a history's tool call is sent back under. A
// model may call a tool by a name no tool has, with spaces or dots in it;
// the call stays in history with an "unknown tool" result, and APIs that
// check the history's names (OpenAI answers 400 to any outside
// [a-zA-Z0-9_-]{1,64}) would refuse every later request. Such a name goes
// as InvalidNamePrefix and its valid characters, so it cannot pass for
// one of the agent's tools; a valid name goes as it is.
func WireToolName(name string) string {
	if contract.ValidToolName(name) {
		return name
	}
	b := []byte(InvalidNamePrefix)
	for _, r := range name {
		if len(b) == 64 {
			break
		}
		if contract.ValidToolName(string(r)) {
			b = append(b, byte(r))
		} else {
			b = append(b, '_')
		}
	}
	return string(b)
}
