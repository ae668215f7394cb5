package builtin

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// errRelativeAfterCd: once a line changes directory, a relative path in
// a key names another file than the one approved: "cd src" and
// "./gradlew" approved must not allow cd /tmp/evil; ./gradlew, nor two
// approved "cd .." climb out of the workspace.
var errRelativeAfterCd = errors.New("a relative path in a line that changes directory names another file")

// dirChangers change the directory of the commands after them.
var dirChangers = map[string]bool{"cd": true, "pushd": true, "popd": true}

// dirKey is the key of where cd or pushd goes: "cd DIR", with a space,
// which no command's name has; "cd *" when the line computes it (cd -
// goes to $OLDPWD, pushd alone to the directory below the top of the
// stack) and "cd ~" for a bare cd. popd goes back to a directory the
// line pushed and has no key beyond its name.
func dirKey(base string, args []*syntax.Word) []string {
	if base == "popd" {
		return nil
	}
	var operands []*syntax.Word
	for i, w := range args {
		s, ok := joinParts(w)
		if ok && s == "--" {
			operands = args[i+1:]
			break
		}
		if !ok || len(s) < 2 || s[0] != '-' || strings.Trim(s[1:], "LPe@n") != "" {
			operands = args[i:]
			break
		}
	}
	if len(operands) == 0 && base == "cd" {
		return []string{"cd ~"}
	}
	if len(operands) != 1 {
		return []string{base + " *"}
	}
	dir, ok := literal(operands[0])
	if !ok || dir == "-" || (base == "pushd" && strings.Trim(dir, "+-0123456789") == "") {
		return []string{base + " *"}
	}
	return []string{base + " " + dir}
}

// chdirOption reports whether a wrapper's option word runs the command
// in another directory: env -C DIR (--chdir), sudo -D DIR (--chdir).
func chdirOption(base, s string) bool {
	if long, ok := strings.CutPrefix(s, "--"); ok {
		name, _, _ := strings.Cut(long, "=")
		return (base == "env" || base == "sudo") && len(name) >= 2 && strings.HasPrefix("chdir", name)
	}
	switch base {
	case "env":
		return strings.Contains(optionLetters(base, s), "C")
	case "sudo":
		return strings.Contains(optionLetters(base, s), "D")
	}
	return false
}

// optionLetters are the option letters of a short option word, up to
// the first that takes a value (-iC DIR, -uroot).
func optionLetters(base, s string) string {
	for j := 1; j < len(s); j++ {
		if strings.ContainsRune(shortValues[base], rune(s[j])) {
			return s[1 : j+1]
		}
	}
	return s[1:]
}

// relativeKeys refuses keys that name a path relative to the current
// directory: a command path (./gradlew, bin/x), a written file (>out)
// or a sourced file (. venv/bin/activate; . x looks in the current
// directory too). Absolute and ~ paths name the same file anywhere.
func relativeKeys(keys []string) error {
	for _, k := range keys {
		var path string
		switch {
		case strings.HasPrefix(k, ">"):
			path = k[1:]
		case strings.HasPrefix(k, ". "):
			path = k[2:]
		case strings.ContainsAny(k, " ="):
			continue // a variable or a directory change
		case strings.Contains(k, "/"):
			path = k
		default:
			continue // a command found through PATH
		}
		if !strings.HasPrefix(path, "/") && !strings.HasPrefix(path, "~") {
			return errRelativeAfterCd
		}
	}
	return nil
}
