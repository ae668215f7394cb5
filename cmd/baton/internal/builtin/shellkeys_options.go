package builtin

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// runOption names options that run a command given as their value, or
// load code or settings that do: one-letter ones in any word of
// one-letter options, long ones or the abbreviations getopt accepts.
type runOption struct {
	letters string
	long    []string
	// dashed are whole names read after one dash or two, as Go's flag
	// package reads them (-exec, --exec=x), without abbreviations.
	dashed []string
}

// optionRunners are programs with such options: rsync -e (--rsh) and
// --rsync-path, tar -I (--use-compress-program), -F, --to-command and
// --checkpoint-action, zip -TT (--unzip-command), man -P (--pager) and
// -H (--html), less -k and its + commands, sort --compress-program, which
// runs on sort's temporary files, npx -c and npm exec -c (--call), which
// run a shell line, npm's and npx's --script-shell and --shell, which
// run scripts with the program they name, --node-options (--require
// FILE), --userconfig and --globalconfig (an npmrc may set those),
// --git, --editor, --browser and --viewer, go -exec, -toolexec and
// -vettool, go env -w, which writes settings every later go command
// reads (GOFLAGS=-toolexec=x), cargo --config (which may set a runner);
// or that write the file they name: less -o and -O (--log-file). A call
// given one is keyed by the whole call.
var optionRunners = map[string]runOption{
	"rsync": {letters: "eM", long: []string{"rsh", "rsync-path", "remote-option"}},
	"tar": {letters: "IF", long: []string{"to-command", "use-compress-program", "checkpoint-action",
		"info-script", "new-volume-script", "rsh-command", "rmt-command"}},
	"zip":   {long: []string{"unzip-command"}},
	"man":   {letters: "PH", long: []string{"pager", "html", "browser"}},
	"less":  {letters: "koO", long: []string{"lesskey-file", "lesskey-src", "log-file", "LOG-FILE"}},
	"sort":  {long: []string{"compress-program"}},
	"npx":   {letters: "c", long: npmRunners},
	"npm":   {letters: "c", long: npmRunners},
	"go":    {dashed: []string{"exec", "toolexec", "vettool"}},
	"cargo": {long: []string{"config"}},
}

// npmRunners are the long options of npm and npx that run a program:
// npm reads any abbreviation of them (--script for --script-shell).
var npmRunners = []string{
	"call", "script-shell", "shell", "node-options", "userconfig", "globalconfig",
	"git", "editor", "browser", "viewer",
}

// gitSafeGlobals are git's options before its command that neither run
// a command nor point it at another repository or configuration (-c,
// -C, --git-dir, --exec-path and the others do).
var gitSafeGlobals = []string{
	"--no-pager", "-P", "-p", "--paginate", "--bare", "--no-replace-objects",
	"--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
	"--no-optional-locks", "--version", "--help", "-v", "-h",
}

// gitRunners are git commands that run a command given to them or set
// in configuration they write (git config core.fsmonitor, alias.x=!cmd):
// remote-ext runs its operand as a shell line once stdin asks it to
// connect, instaweb its --httpd, daemon its --access-hook, and
// receive-pack the hooks of the repository it is pointed at.
var gitRunners = map[string]bool{
	"config": true, "submodule": true, "bisect": true, "filter-branch": true,
	"difftool": true, "mergetool": true, "send-email": true, "archimport": true,
	"cvsimport": true, "svn": true, "p4": true,
	"remote-ext": true, "instaweb": true, "daemon": true, "receive-pack": true,
}

// gitCommandOptions are git commands' options that run a command, or
// set configuration or hooks that do: rebase -x, grep -O, clone -c and
// --template, fetch --upload-pack; or that write the file they name, as
// a redirection would: diff, log and show --output, archive -o.
var gitCommandOptions = map[string]runOption{
	"rebase":       {letters: "x", long: []string{"exec"}},
	"grep":         {letters: "O", long: []string{"open-files-in-pager"}},
	"clone":        {letters: "cu", long: []string{"config", "upload-pack", "template"}},
	"init":         {long: []string{"template"}},
	"fetch":        {long: []string{"upload-pack"}},
	"pull":         {long: []string{"upload-pack"}},
	"ls-remote":    {long: []string{"upload-pack"}},
	"push":         {long: []string{"receive-pack", "exec"}},
	"archive":      {letters: "o", long: []string{"exec", "output"}},
	"diff":         {long: []string{"output"}},
	"log":          {long: []string{"output"}},
	"show":         {long: []string{"output"}},
	"whatchanged":  {long: []string{"output"}},
	"format-patch": {long: []string{"output"}},
	"range-diff":   {long: []string{"output"}},
	"diff-tree":    {long: []string{"output"}},
	"diff-index":   {long: []string{"output"}},
	"diff-files":   {long: []string{"output"}},
}

// optionRuns reports whether a program's words give it an option that
// runs a command. Fed words may be such an option, but for the paths
// find puts in place of {}, which begin as its starting points do and so
// never with "-" (tar's first word and less's + commands need none).
func optionRuns(base string, args []*syntax.Word, r reach) (bool, error) {
	if base == "git" {
		return gitRuns(args, r)
	}
	spec, known := optionRunners[base]
	if !known {
		return false, nil
	}
	if r.open {
		return false, errDynamic
	}
	for i, w := range args {
		s, ok := joinParts(w)
		fed := r.subst != "" && strings.Contains(s, r.subst)
		switch {
		case !ok || (fed && (!r.paths || base == "tar" || base == "less")):
			return true, nil
		case fed:
		case s == "--":
			return false, nil
		case base == "tar" && i == 0 && !strings.HasPrefix(s, "-") && strings.ContainsAny(s, spec.letters):
			return true, nil // tar's old options: tar xIf PROG a.tar
		case base == "zip" && strings.HasPrefix(s, "-") && strings.Contains(s, "TT"):
			return true, nil
		case base == "less" && strings.HasPrefix(s, "+"):
			return true, nil
		case base == "go" && i > 0 && s == "-w":
			if first, _ := joinParts(args[0]); first == "env" {
				return true, nil
			}
		case hasOption(spec, s):
			return true, nil
		}
	}
	return false, nil
}

func hasOptionRunner(base string) bool {
	_, ok := optionRunners[base]
	return ok
}

// hasOption reports whether the word s is one of spec's options.
func hasOption(spec runOption, s string) bool {
	if dashed, ok := strings.CutPrefix(s, "-"); ok && len(spec.dashed) > 0 {
		name, _, _ := strings.Cut(strings.TrimPrefix(dashed, "-"), "=")
		return slices.Contains(spec.dashed, name)
	}
	if long, ok := strings.CutPrefix(s, "--"); ok {
		name, _, _ := strings.Cut(long, "=")
		return name != "" && slices.ContainsFunc(spec.long, func(l string) bool { return strings.HasPrefix(l, name) })
	}
	return strings.HasPrefix(s, "-") && strings.ContainsAny(s[1:], spec.letters)
}

// gitRuns reports whether a git call may run a command other than git's
// own: an option before its command not in gitSafeGlobals, a command of
// gitRunners, or an option of gitCommandOptions. A word computed when
// the line runs may be any of those, except after a command that has
// none of gitCommandOptions (git commit -m "$(cat msg)"), or where git
// computes object names (git diff $(git merge-base main HEAD);
// gitRevisions).
func gitRuns(args []*syntax.Word, r reach) (bool, error) {
	if r.open {
		return false, errDynamic
	}
	words := make([]string, len(args))
	fixed := len(args)
	for i, w := range args {
		s, ok := joinParts(w)
		if !ok && gitRevisions(w) {
			s, ok = revisionWord, true
		}
		if !ok || (r.subst != "" && strings.Contains(s, r.subst)) {
			fixed = i
			break
		}
		words[i] = s
	}
	at := 0
	for ; at < fixed && strings.HasPrefix(words[at], "-"); at++ {
		if !slices.Contains(gitSafeGlobals, words[at]) {
			return true, nil
		}
	}
	switch {
	case at == len(words):
		return false, nil
	case at == fixed || gitRunners[words[at]] || words[at] == revisionWord:
		return true, nil
	}
	spec, risky := gitCommandOptions[words[at]]
	if !risky {
		return false, nil
	}
	for _, s := range words[at+1 : fixed] {
		if s == "--" {
			return false, nil
		}
		if hasOption(spec, s) {
			return true, nil
		}
	}
	return fixed < len(words), nil
}
