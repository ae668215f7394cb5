package turn

import "strings"

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
