package builtin

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// errTarExtracts: tar extracting writes the files its archive names,
// links included, which no key can name: approving tar xzf a.tgz must
// not approve extracting into ~ (-C ~), nor an archive that holds a
// link and then a file written through it.
var errTarExtracts = errors.New("tar extracts files its archive names, not its line")

// tarKind is what one of GNU tar's options does.
type tarKind int

const (
	tarFlag     tarKind = iota
	tarValue            // takes a value: attached, after "=", or the next word
	tarOptional         // takes a value only after "="
	tarArchive          // -f: the archive, written when tar creates or appends
	tarWritten          // a file tar writes besides (-g, --index-file)
	tarUnsafe           // removes files, reads names or options from a file, or runs a program
	tarInfo             // --help, --version: it prints and changes nothing
	tarMode             // picks what tar does: tarModes gives its letter
)

// tarShort are tar's one-letter options; a mode's letter is its own.
var tarShort = map[byte]tarKind{
	'A': tarMode, 'c': tarMode, 'd': tarMode, 'r': tarMode, 't': tarMode, 'u': tarMode, 'x': tarMode,
	'b': tarValue, 'C': tarValue, 'H': tarValue, 'K': tarValue, 'L': tarValue, 'N': tarValue, 'V': tarValue, 'X': tarValue,
	'f': tarArchive, 'g': tarWritten, 'T': tarUnsafe, 'M': tarUnsafe, 'F': tarUnsafe, 'I': tarUnsafe,
	'a': tarFlag, 'B': tarFlag, 'G': tarFlag, 'h': tarFlag, 'i': tarFlag, 'j': tarFlag, 'J': tarFlag, 'k': tarFlag,
	'l': tarFlag, 'm': tarFlag, 'n': tarFlag, 'O': tarFlag, 'o': tarFlag, 'p': tarFlag, 'P': tarFlag, 'R': tarFlag,
	's': tarFlag, 'S': tarFlag, 'U': tarFlag, 'v': tarFlag, 'w': tarFlag, 'W': tarFlag, 'z': tarFlag, 'Z': tarFlag,
}

// tarModes are tar's long options that pick its mode, by the letter of
// the one-letter option that does the same ('D' for --delete, which
// has none, and 't' for --test-label, which only reads).
var tarModes = map[string]byte{
	"catenate": 'A', "concatenate": 'A', "create": 'c', "diff": 'd', "compare": 'd', "append": 'r',
	"list": 't', "update": 'u', "extract": 'x', "get": 'x', "delete": 'D', "test-label": 't',
}

// tarLong are tar's other long options, by what they do.
var tarLong = func() map[string]tarKind {
	m := map[string]tarKind{"file": tarArchive, "listed-incremental": tarWritten, "index-file": tarWritten,
		"volno-file": tarWritten, "help": tarInfo, "usage": tarInfo, "version": tarInfo, "show-defaults": tarInfo}
	for kind, names := range map[tarKind]string{
		tarValue: "after-date blocking-factor directory exclude exclude-from exclude-ignore exclude-ignore-recursive " +
			"exclude-tag exclude-tag-all exclude-tag-under format group group-map hole-detection label level mode " +
			"mtime newer newer-mtime no-quote-chars owner owner-map pax-option quote-chars quoting-style " +
			"record-size sort sparse-version starting-file strip-components suffix transform warning " +
			"xattrs-exclude xattrs-include xform add-file",
		tarOptional: "atime-preserve backup checkpoint occurrence one-top-level totals",
		tarUnsafe: "remove-files files-from multi-volume tape-length info-script new-volume-script to-command " +
			"use-compress-program rsh-command rmt-command checkpoint-action",
		tarFlag: "absolute-names acls anchored auto-compress block-number bzip2 check-device check-links " +
			"clamp-mtime compress confirmation delay-directory-restore dereference exclude-backups exclude-caches " +
			"exclude-caches-all exclude-caches-under exclude-vcs exclude-vcs-ignores force-local full-time gunzip " +
			"gzip hard-dereference ignore-case ignore-command-error ignore-failed-read ignore-zeros incremental " +
			"interactive keep-directory-symlink keep-newer-files keep-old-files lzip lzma lzop no-acls no-anchored " +
			"no-auto-compress no-check-device no-delay-directory-restore no-ignore-case no-ignore-command-error " +
			"no-null no-overwrite-dir no-recursion no-same-owner no-same-permissions no-seek no-selinux no-unquote " +
			"no-verbatim-files-from no-wildcards no-wildcards-match-slash no-xattrs null numeric-owner old-archive " +
			"one-file-system overwrite overwrite-dir portability posix preserve-order preserve-permissions " +
			"read-full-records recursion recursive-unlink restrict same-order same-owner same-permissions seek " +
			"selinux show-omitted-dirs show-snapshot-field-ranges show-stored-names show-transformed-names " +
			"skip-old-files sparse to-stdout touch uncompress ungzip unlink-first unquote utc " +
			"verbatim-files-from verbose verify wildcards wildcards-match-slash xattrs xz zstd",
	} {
		for _, name := range strings.Fields(names) {
			m[name] = kind
		}
	}
	for name := range tarModes {
		m[name] = tarMode
	}
	return m
}()

// tarCall is what tar's words give it.
type tarCall struct {
	args     []*syntax.Word
	modes    string
	archives []string
	written  []string
	info     bool
}

// tarWrites are the keys of the files a tar call writes: creating,
// appending, updating, concatenating or deleting from an archive
// writes the archive (-f, --file, old-style cf FILE) and -g or
// --index-file their file, each ">" and its path as a redirection's;
// listing and comparing write only the latter, --help and --version
// none. Extracting has
// no keys (errTarExtracts), nor has a call whose words are computed or
// fed, whose options are not all known, that removes the files it
// archives, reads their names from a file, has no archive named (tar
// then writes $TAPE) or one on another host (HOST:FILE), or picks two
// modes.
func tarWrites(args []*syntax.Word, r reach) ([]string, error) {
	if r.open || r.fed(args) {
		return nil, errDynamic
	}
	c := tarCall{args: args}
	if err := c.read(); err != nil {
		return nil, err
	}
	switch {
	case strings.Contains(c.modes, "x"):
		return nil, errTarExtracts
	case c.info || c.modes == "":
		return nil, nil // it prints, or fails
	case len(c.modes) > 1:
		return nil, errDynamic
	}
	return c.keys(c.modes != "t" && c.modes != "d")
}

// keys names the files the call writes: the archive when it writes
// one (archive), and those -g and --index-file name.
func (c *tarCall) keys(archive bool) ([]string, error) {
	written := c.written
	if archive {
		if len(c.archives) != 1 {
			return nil, errDynamic // $TAPE, or several volumes
		}
		written = append(written, c.archives[0])
	}
	var keys []string
	for _, w := range written {
		switch {
		case strings.Contains(w, ":"):
			return nil, errDynamic // HOST:FILE, written over rsh
		case w != "-" && w != "/dev/null":
			keys = append(keys, ">"+w)
		}
	}
	return keys, nil
}

func (c *tarCall) read() error {
	i := 0
	if len(c.args) > 0 {
		if s, ok := fixedText(c.args[0]); ok && s != "" && s[0] != '-' {
			next, err := c.oldOptions(s)
			if err != nil {
				return err
			}
			i = next
		}
	}
	for ; i < len(c.args); i++ {
		s, ok := fixedText(c.args[i])
		switch {
		case !ok:
			return errDynamic // it may be an option, or split into several
		case s == "--":
			return nil
		case len(s) < 2 || s[0] != '-':
			continue // a file archived, or a member
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

// oldOptions reads tar's first word in the old style, letters without
// a dash (tar czf a.tgz d): each letter that takes a value takes the
// next word after the first not yet taken. It returns the index of the
// first word left.
func (c *tarCall) oldOptions(s string) (int, error) {
	next := 1
	for j := range len(s) {
		kind, ok := tarShort[s[j]]
		if !ok {
			return 0, errDynamic
		}
		value := ""
		if kind == tarValue || kind == tarArchive || kind == tarWritten {
			if next == len(c.args) {
				return 0, errDynamic
			}
			var err error
			if value, err = c.wordValue(next, kind); err != nil {
				return 0, err
			}
			next++
		}
		if err := c.note(kind, s[j], value); err != nil {
			return 0, err
		}
	}
	return next, nil
}

// shortOptions reads a word of one-letter options at args[i]; next is 1
// when the last takes the next word as its value.
func (c *tarCall) shortOptions(s string, i int) (next int, err error) {
	for j := 1; j < len(s); j++ {
		kind, ok := tarShort[s[j]]
		switch {
		case !ok:
			return 0, errDynamic
		case kind == tarValue || kind == tarArchive || kind == tarWritten:
			value, next, err := c.value(i, s[j+1:], j+1 < len(s), kind)
			if err != nil {
				return 0, err
			}
			return next, c.note(kind, s[j], value)
		}
		if err := c.note(kind, s[j], ""); err != nil {
			return 0, err
		}
	}
	return 0, nil
}

// longOption reads --name[=value] at args[i]; next is 1 when its value
// is the next word.
func (c *tarCall) longOption(s string, i int) (next int, err error) {
	name, value, hasValue := strings.Cut(s, "=")
	name, kind, ok := tarLongKind(name)
	switch {
	case !ok:
		return 0, errDynamic // not known, or an ambiguous abbreviation
	case hasValue && kind != tarValue && kind != tarOptional && kind != tarArchive && kind != tarWritten:
		return 0, errDynamic
	case kind == tarValue || kind == tarArchive || kind == tarWritten:
		value, next, err = c.value(i, value, hasValue, kind)
		if err != nil {
			return 0, err
		}
	}
	return next, c.note(kind, tarModes[name], value)
}

// tarLongKind finds a long option by its name or an abbreviation that
// begins no other, as getopt_long does.
func tarLongKind(name string) (string, tarKind, bool) {
	if kind, ok := tarLong[name]; ok {
		return name, kind, true
	}
	found, n := "", 0
	for long := range tarLong {
		if name != "" && strings.HasPrefix(long, name) {
			found, n = long, n+1
		}
	}
	return found, tarLong[found], n == 1
}

// value returns an option's value: rest, when attached, else the next
// word (next is 1). A tilde attached to an option is no sh's home.
func (c *tarCall) value(i int, rest string, attached bool, kind tarKind) (value string, next int, err error) {
	if !attached {
		if i+1 == len(c.args) {
			return "", 0, errDynamic
		}
		value, err = c.wordValue(i+1, kind)
		return value, 1, err
	}
	if strings.HasPrefix(rest, "~") {
		rest = "./" + rest
	}
	return rest, 0, nil
}

// wordValue is the text of args[i], an option's value of kind: fixed,
// and plain text (literal) where it names a file written.
func (c *tarCall) wordValue(i int, kind tarKind) (string, error) {
	s, ok := fixedText(c.args[i])
	if kind != tarValue {
		s, ok = literal(c.args[i])
	}
	if !ok {
		return "", errDynamic
	}
	return s, nil
}

// note records what an option does; mode is the letter of a mode.
func (c *tarCall) note(kind tarKind, mode byte, value string) error {
	switch kind {
	case tarUnsafe:
		return errDynamic
	case tarInfo:
		c.info = true
	case tarMode:
		if !strings.ContainsRune(c.modes, rune(mode)) {
			c.modes += string(mode)
		}
	case tarArchive:
		if value == "" {
			return errDynamic
		}
		c.archives = append(c.archives, value)
	case tarWritten:
		if value == "" {
			return errDynamic
		}
		c.written = append(c.written, value)
	}
	return nil
}
