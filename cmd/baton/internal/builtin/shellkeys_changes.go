package builtin

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// optKind is what one option of a program that changes files does.
type optKind int

const (
	optFlag     optKind = iota // takes no value
	optValue                   // takes a value: attached, after "=", or the next word
	optOptional                // takes a value only attached or after "="
	optTarget                  // -t DIR: the folder the sources are written in
	optNoTarget                // -T: the destination is the file written, never a folder
	optDirs                    // install -d: every operand is a folder made
	optParents                 // cp --parents: a source keeps its whole path in the folder
	optMode                    // chmod --reference FILE: no operand gives the mode
	optInfo                    // --help, --version: it prints and changes nothing
	optLink                    // cp -l: the destination is a hard link to its source
	optSymlink                 // ln -s, cp -s: the destination is a symbolic link to its source
	optRelative                // ln -r: a symbolic link's target is made relative to it
	optUnsafe                  // a backup named by the environment, or a program run
)

// changerSpec is how a program that changes the files named on its line
// reads its words, as GNU's getopt_long does: its one-letter options and
// long ones (or the abbreviations getopt accepts) by what they do. dest:
// it writes its last operand, or, when that is a folder, the file of
// each source's name in it (cp, mv, install, ln); otherwise every operand
// is a file changed (touch, rm, chmod, truncate). moves: its sources are
// removed (mv). mode: its first operand is a mode, not a file, unless an
// option gives one (chmod -w, --reference). alone: a lone operand is
// linked in the current folder (ln TARGET). links: what it writes is a
// link to its source (ln). file: its destination is the file written,
// never a folder (link). modeWords: a word of mode letters after "-" is
// its mode (chmod -w). first: only its first operand is a file
// (mknod NAME TYPE MAJOR MINOR). stdinNames: an operand "-" has it read
// the names of the files it changes from stdin (setfacl).
type changerSpec struct {
	short              map[byte]optKind
	long               map[string]optKind
	dest, moves, alone bool
	mode, links, file  bool
	modeWords, first   bool
	stdinNames         bool
}

// shortOpts builds a short option table: flags take no value, values
// take one, and special letters do what their kind says.
func shortOpts(flags, values string, special map[byte]optKind) map[byte]optKind {
	m := map[byte]optKind{}
	for i := range len(flags) {
		m[flags[i]] = optFlag
	}
	for i := range len(values) {
		m[values[i]] = optValue
	}
	for c, k := range special {
		m[c] = k
	}
	return m
}

// withInfo adds --help and --version to a long option table.
func withInfo(long map[string]optKind) map[string]optKind {
	long["help"], long["version"] = optInfo, optInfo
	return long
}

// backupOpts are the options that make cp, mv, install and ln keep the
// file they replace as a backup, named by the environment
// (VERSION_CONTROL, SIMPLE_BACKUP_SUFFIX) or by a suffix: a file their
// keys would not name.
var backupOpts = map[byte]optKind{'b': optUnsafe, 'S': optUnsafe, 't': optTarget, 'T': optNoTarget}

// linkOpts are backupOpts and the options that make cp or ln write a
// link (cp -l, -s; ln -s, -r).
func linkOpts(links map[byte]optKind) map[byte]optKind {
	for c, k := range backupOpts {
		links[c] = k
	}
	return links
}

// changers change the files named on their line: cp, mv, install and ln
// write their destination, touch, rm, chmod and truncate every file
// they are given. Each is keyed by those files as a redirection to them
// is, so approving one for a file does not approve it for another.
var changers = map[string]changerSpec{
	"cp": {short: shortOpts("adfHiLnPpRruvxZ", "", linkOpts(map[byte]optKind{'l': optLink, 's': optSymlink})), dest: true, long: withInfo(map[string]optKind{
		"archive": optFlag, "attributes-only": optFlag, "backup": optUnsafe, "copy-contents": optFlag,
		"debug": optFlag, "dereference": optFlag, "force": optFlag, "interactive": optFlag,
		"keep-directory-symlink": optFlag, "link": optLink, "no-clobber": optFlag, "no-dereference": optFlag,
		"no-preserve": optValue, "no-target-directory": optNoTarget, "one-file-system": optFlag,
		"parents": optParents, "preserve": optOptional, "recursive": optFlag, "reflink": optOptional,
		"remove-destination": optFlag, "sparse": optValue, "strip-trailing-slashes": optFlag,
		"suffix": optUnsafe, "symbolic-link": optSymlink, "target-directory": optTarget,
		"update": optOptional, "verbose": optFlag, "context": optOptional,
	})},
	"mv": {short: shortOpts("finuvZ", "", backupOpts), dest: true, moves: true, long: withInfo(map[string]optKind{
		"backup": optUnsafe, "debug": optFlag, "exchange": optFlag, "force": optFlag, "interactive": optFlag,
		"no-clobber": optFlag, "no-copy": optFlag, "strip-trailing-slashes": optFlag, "suffix": optUnsafe,
		"target-directory": optTarget, "no-target-directory": optNoTarget, "update": optOptional,
		"verbose": optFlag, "context": optFlag,
	})},
	"install": {short: shortOpts("cCDpsvZ", "gmo", map[byte]optKind{'b': optUnsafe, 'S': optUnsafe, 't': optTarget, 'T': optNoTarget, 'd': optDirs}),
		dest: true, long: withInfo(map[string]optKind{
			"backup": optUnsafe, "compare": optFlag, "debug": optFlag, "directory": optDirs, "group": optValue,
			"mode": optValue, "owner": optValue, "preserve-timestamps": optFlag, "strip": optFlag,
			"strip-program": optUnsafe, "suffix": optUnsafe, "target-directory": optTarget,
			"no-target-directory": optNoTarget, "verbose": optFlag, "preserve-context": optFlag,
			"context": optOptional,
		})},
	"ln": {short: shortOpts("dFfinLPv", "", linkOpts(map[byte]optKind{'s': optSymlink, 'r': optRelative})),
		dest: true, alone: true, links: true, long: withInfo(map[string]optKind{
			"backup": optUnsafe, "directory": optFlag, "force": optFlag, "interactive": optFlag, "logical": optFlag,
			"no-dereference": optFlag, "physical": optFlag, "relative": optRelative, "symbolic": optSymlink,
			"suffix": optUnsafe, "target-directory": optTarget, "no-target-directory": optNoTarget, "verbose": optFlag,
		})},
	"touch": {short: shortOpts("acfhm", "dtr", nil), long: withInfo(map[string]optKind{
		"time": optValue, "date": optValue, "reference": optValue, "no-create": optFlag, "no-dereference": optFlag,
	})},
	"rm": {short: shortOpts("dfiIrRv", "", nil), long: withInfo(map[string]optKind{
		"force": optFlag, "interactive": optOptional, "one-file-system": optFlag, "no-preserve-root": optFlag,
		"preserve-root": optOptional, "recursive": optFlag, "dir": optFlag, "verbose": optFlag,
	})},
	"chmod": {short: shortOpts("cfvR", "", nil), mode: true, modeWords: true, long: withInfo(map[string]optKind{
		"changes": optFlag, "silent": optFlag, "quiet": optFlag, "verbose": optFlag, "no-preserve-root": optFlag,
		"preserve-root": optFlag, "reference": optMode, "recursive": optFlag,
	})},
	"truncate": {short: shortOpts("co", "rs", nil), long: withInfo(map[string]optKind{
		"no-create": optFlag, "io-blocks": optFlag, "reference": optValue, "size": optValue,
	})},
}

// modeLetters begin a chmod word that is a mode, not options (-w, -x,
// -rwx): chmod reads such a word whole as its mode.
const modeLetters = "rwxXstugoa,+-=01234567"

// changeCall is what a changer's words give it.
type changeCall struct {
	spec                               changerSpec
	args                               []*syntax.Word
	operands                           []int // indexes in args
	target                             string
	hasTarget, noTarget, dirs, parents bool
	modeGiven, info                    bool
	link, symbolic, relative           bool
}

// changedFiles are the keys of the files a changer's call changes: ">"
// and each path, as a redirection's. A call whose words are computed,
// fed or globbed where it names a file changed, whose options are not
// all known, or that keeps backups has no keys. GNU's getopt reads an
// option after an operand as an option, BSD's as an operand, a file of
// that name: such a call has no keys either.
func changedFiles(base string, args []*syntax.Word, r reach) ([]string, error) {
	spec, ok := changerOf(base)
	if !ok {
		return nil, nil
	}
	if r.open || r.fed(args) {
		return nil, errDynamic
	}
	c := changeCall{spec: spec, args: args, link: spec.links, noTarget: spec.file}
	if err := c.read(); err != nil {
		return nil, err
	}
	if c.info {
		return nil, nil
	}
	return c.keys()
}

func (c *changeCall) read() error {
	for i := 0; i < len(c.args); i++ {
		s, ok := joinParts(c.args[i])
		switch {
		case !ok:
			return errDynamic // it may be an option, or split into several
		case len(s) < 2 || s[0] != '-':
			c.operands = append(c.operands, i)
			continue
		case len(c.operands) > 0:
			return errDynamic // BSD reads it as a file's name
		case s == "--":
			for j := i + 1; j < len(c.args); j++ {
				if _, ok := joinParts(c.args[j]); !ok {
					return errDynamic
				}
				c.operands = append(c.operands, j)
			}
			return nil
		}
		var next int
		var err error
		if strings.HasPrefix(s, "--") {
			next, err = c.longOption(s[2:], i)
		} else {
			next, err = c.shortOptions(s, i)
		}
		if err != nil {
			return err
		}
		i += next
	}
	return nil
}

// longOption reads --name[=value] at args[i]; next is 1 when its value
// is the next word.
func (c *changeCall) longOption(s string, i int) (next int, err error) {
	name, value, hasValue := strings.Cut(s, "=")
	kind, ok := c.longKind(name)
	switch {
	case !ok:
		return 0, errDynamic // not known, or an ambiguous abbreviation
	case hasValue && (kind == optFlag || kind == optNoTarget || kind == optDirs || kind == optParents || kind == optInfo):
		return 0, errDynamic
	case kind == optValue || kind == optTarget || kind == optMode:
		value, next, err = c.value(i, value, hasValue, kind)
		if err != nil {
			return 0, err
		}
	}
	return next, c.note(kind, value)
}

// value returns the value of the option at args[i]: rest, when it is
// attached, else the next word (next is 1). The folder -t names must be
// plain text; a tilde attached to an option is no sh's home folder.
func (c *changeCall) value(i int, rest string, attached bool, kind optKind) (value string, next int, err error) {
	w := c.args[i]
	if !attached {
		if i+1 == len(c.args) {
			return "", 0, errDynamic
		}
		w, next = c.args[i+1], 1
		var ok bool
		if rest, ok = joinParts(w); !ok {
			return "", 0, errDynamic
		}
	} else if strings.HasPrefix(rest, "~") {
		rest = "./" + rest
	}
	if _, ok := literal(w); !ok && kind == optTarget {
		return "", 0, errDynamic
	}
	return rest, next, nil
}

// longKind finds a long option by its name or an abbreviation that
// begins no other.
func (c *changeCall) longKind(name string) (optKind, bool) {
	if kind, ok := c.spec.long[name]; ok {
		return kind, true
	}
	found, n := optFlag, 0
	for long, kind := range c.spec.long {
		if name != "" && strings.HasPrefix(long, name) {
			found, n = kind, n+1
		}
	}
	return found, n == 1
}

// shortOptions reads a word of one-letter options at args[i]; next is 1
// when the last takes the next word as its value.
func (c *changeCall) shortOptions(s string, i int) (next int, err error) {
	if c.spec.modeWords && strings.IndexByte(modeLetters, s[1]) >= 0 {
		c.modeGiven = true // chmod -w, a mode for all its operands
		return 0, nil
	}
	for j := 1; j < len(s); j++ {
		kind, ok := c.spec.short[s[j]]
		switch {
		case !ok:
			return 0, errDynamic
		case kind == optValue || kind == optTarget:
			value, next, err := c.value(i, s[j+1:], j+1 < len(s), kind)
			if err != nil {
				return 0, err
			}
			return next, c.note(kind, value)
		}
		if err := c.note(kind, ""); err != nil {
			return 0, err
		}
	}
	return 0, nil
}

// note records what an option does.
func (c *changeCall) note(kind optKind, value string) error {
	switch kind {
	case optUnsafe:
		return errDynamic
	case optTarget:
		if c.hasTarget || value == "" {
			return errDynamic
		}
		c.target, c.hasTarget = value, true
	case optNoTarget:
		c.noTarget = true
	case optDirs:
		c.dirs = true
	case optParents:
		c.parents = true
	case optMode:
		c.modeGiven = true
	case optInfo:
		c.info = true
	case optLink:
		c.link = true
	case optSymlink:
		c.link, c.symbolic = true, true
	case optRelative:
		c.relative = true
	}
	return nil
}

// keys names the files the call changes.
func (c *changeCall) keys() ([]string, error) {
	operands := c.operands
	if c.spec.mode && !c.modeGiven && len(operands) > 0 {
		operands = operands[1:]
	}
	if c.spec.first && len(operands) > 1 {
		operands = operands[:1]
	}
	if !c.spec.dest || c.dirs {
		var keys []string
		if c.hasTarget {
			keys = append(keys, ">"+c.target)
		}
		for _, i := range operands {
			p, ok := literal(c.args[i])
			if !ok || (c.spec.stdinNames && p == "-") {
				return nil, errDynamic
			}
			keys = append(keys, ">"+p)
		}
		return keys, nil
	}
	return c.destKeys(operands)
}

// destKeys names the files cp, mv, install or ln write: the destination
// itself when it may be a file or a folder they make (madeFolder), and
// each source's name in it when it may be a folder (or the folder -t
// names; ln's lone operand links in the current folder); mv removes its
// sources too, and a link leads to its source (linkKey).
func (c *changeCall) destKeys(operands []int) ([]string, error) {
	dir, sources := c.target, operands
	var keys, file []string
	switch {
	case c.hasTarget:
	case len(operands) == 0 || (len(operands) == 1 && !c.spec.alone):
		return nil, nil // nothing to write: it fails
	case len(operands) == 1:
		dir = "."
	default:
		last := operands[len(operands)-1]
		sources = operands[:len(operands)-1]
		dest, ok := literal(c.args[last])
		if !ok {
			return nil, errDynamic
		}
		if len(sources) == 1 && !folderName(dest) || c.noTarget {
			file = []string{dest}
		}
		if made, ok := madeFolder(dest); ok && len(sources) == 1 && !c.noTarget {
			keys = append(keys, ">"+made)
		}
		if c.noTarget {
			dir = ""
		} else {
			dir = dest
		}
	}
	for _, i := range sources {
		src, ok := literal(c.args[i])
		if !ok {
			return nil, errDynamic
		}
		if c.spec.moves {
			keys = append(keys, ">"+src)
		}
		written := file
		if dir != "" {
			name, ok := c.nameIn(src)
			if !ok {
				return nil, errDynamic
			}
			written = append(slices.Clip(written), inFolder(dir, name))
		}
		for _, w := range written {
			keys = append(keys, ">"+w)
			if c.link {
				keys = append(keys, ">"+c.linkKey(src, w))
			}
		}
	}
	return keys, nil
}

// linkKey is the file a link written at at leads to, as written: a
// later write to the link changes that file, so it is keyed as one
// written. A hard link's source, and a symbolic one's made relative
// (ln -r) or not relative, is read from the current folder; a relative
// symbolic link's from the link's own folder.
func (c *changeCall) linkKey(src, at string) string {
	if !c.symbolic || c.relative || path.IsAbs(src) || strings.HasPrefix(src, "~") {
		return src
	}
	return inFolder(path.Dir(at), src)
}

// nameIn is the name a source is written under in a folder: its last
// element, or with --parents its whole path. A source whose name is ".",
// ".." or "/" writes what it holds into the folder, files no key names.
func (c *changeCall) nameIn(src string) (string, bool) {
	name := path.Base(src)
	if c.parents {
		name = strings.TrimLeft(src, "/")
	}
	switch path.Base(name) {
	case ".", "..", "/":
		return "", false
	}
	return name, name != ""
}

// folderName reports whether a destination can only be a folder.
func folderName(p string) bool {
	switch {
	case p == "." || p == ".." || p == "~" || strings.HasSuffix(p, "/"):
		return true
	}
	return strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..")
}

// madeFolder is the folder a destination ending in "/" names, which cp
// -r and mv make from their one source folder when it is not there
// (cp -r s dst/ copies s to dst), unless it always is (., .., ~, /).
func madeFolder(dest string) (string, bool) {
	made := strings.TrimRight(dest, "/")
	if made == dest || made == "" || folderName(made) {
		return "", false
	}
	return made, true
}

// inFolder is the path of name in the folder dir.
func inFolder(dir, name string) string {
	if dir == "." {
		return name
	}
	return strings.TrimRight(dir, "/") + "/" + name
}
