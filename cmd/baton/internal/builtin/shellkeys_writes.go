package builtin

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// writerSpec is how a program that writes a file it is told of reads its
// words: one-letter options whose value is a file written (writes) and
// other one-letter options that take a value (values, attached or the
// next word); long options, or the abbreviations getopt accepts, whose
// value is a file written (long) and others that take the next word
// without "=" (longValues); options that leave what it writes to a file
// or a server (dynamic: curl -K, curl -O, wget -e), or that let wget
// overwrite, append to or place in folders the files it names after the
// URL, which it otherwise saves beside one that exists as FILE.1 (wget
// -N, -c, -r, -m, -p, -x, --content-disposition). Written operands are
// all (tee FILE...), the one at outOperand, counted from 1 (uniq IN OUT),
// or those beginning with prefix (dd of=FILE). curl: a file written
// holding #1 is named by the URL's globs, a value of -w (--write-out)
// may name one (%output{FILE}) or be read from one (@FILE, @- for
// stdin), and --expand-NAME is option NAME with {{variables}}
// expanded in its value. dashed are options read as Go's flag package
// reads them, after one dash or two, whose value is a file written (go
// build -o, go test -coverprofile). command: its options end
// at its first operand, the command it runs (time). Only options known
// to take a value are listed as such: one that does but is not listed
// only makes its value read as another word, which may add a key, while
// one listed that does not would hide the word after it.
type writerSpec struct {
	writes, values, dynamic string
	long, longValues        []string
	dynamicLong             []string
	dashed                  []string
	all                     bool
	outOperand              int
	prefix                  string
	curl                    bool
	command                 bool
}

// writers write a file named on the line as a redirection would: tee,
// sponge, sort -o, shuf -o, uniq's second operand, dd of=, GNU time -o,
// curl -o (and its header, cookie and trace files), wget -O (and its log
// and folder), iconv -o, patch ORIGFILE, -o and -r (its rejects), go build -o and
// go test's profiles. A redirection's key is ">" and the path; theirs is the same,
// so approving one for a file does not approve it for another.
var writers = map[string]writerSpec{
	"tee":    {all: true},
	"sponge": {all: true},
	"iconv":  {writes: "o", values: "ft", long: []string{"output"}, longValues: []string{"from-code", "to-code"}},
	"patch": {writes: "or", values: "pdiBzDFVYg", outOperand: 1, long: []string{"output", "reject-file"},
		longValues: []string{"strip", "directory", "input", "prefix", "suffix", "ifdef", "fuzz", "version-control", "basename-prefix", "get", "quoting-style", "reject-format"}},
	"sort": {writes: "o", values: "kStT", long: []string{"output"}, longValues: []string{"key", "field-separator", "buffer-size", "temporary-directory", "compress-program", "files0-from", "random-source", "batch-size", "parallel", "sort"}},
	"shuf": {writes: "o", values: "in", long: []string{"output"}, longValues: []string{"input-range", "head-count", "random-source"}},
	"uniq": {values: "fsw", outOperand: 2, longValues: []string{"skip-fields", "skip-chars", "check-chars"}},
	"dd":   {prefix: "of="},
	"time": {writes: "o", values: "f", long: []string{"output"}, longValues: []string{"format"}, command: true},
	"curl": {
		writes: "oDc", values: "AbCdeEFHmPQrtTuUxXyYz", dynamic: "OJK",
		long:        []string{"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "libcurl", "stderr", "etag-save", "hsts", "alt-svc", "output-dir"},
		dynamicLong: []string{"remote-name", "remote-name-all", "remote-header-name", "config"},
		curl:        true,
	},
	"go": {dashed: []string{"o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir"}},
	"wget": {
		writes: "OoaP", values: "iBtTwQUlARDIXn", dynamic: "eNcrmpx",
		long: []string{"output-document", "output-file", "append-output", "directory-prefix", "save-cookies", "warc-file", "rejected-log", "hsts-file"},
		dynamicLong: []string{"execute", "config", "timestamping", "continue", "recursive", "mirror",
			"page-requisites", "force-directories", "content-disposition", "trust-server-names"},
	},
}

// writtenFiles are the keys of the files a writer's call writes, or a
// changer's call changes (changedFiles, sedWrites, tarWrites,
// rsyncWrites): ">" and each path,
// as a redirection's; none for stdout ("-") or /dev/null. A
// word computed when the line runs may be an option, or split into
// several, so one that may begin with "-" has no keys; so has a call
// whose fed words (r) may be options or the files written.
func writtenFiles(base string, args []*syntax.Word, r reach) ([]string, error) {
	switch _, changer := changerOf(base); {
	case changer:
		return changedFiles(base, args, r)
	case base == "sed":
		return sedWrites(args, r)
	case base == "tar":
		return tarWrites(args, r)
	case base == "rsync":
		return rsyncWrites(args, r)
	case base == "split" || base == "csplit":
		return nil, errSplits
	}
	spec, ok := writers[base]
	if !ok {
		return nil, nil
	}
	w := writeReader{spec: spec, args: args, r: r}
	if err := w.read(); err != nil {
		return nil, err
	}
	if w.chdir && slices.ContainsFunc(w.keys, func(k string) bool { return !strings.HasPrefix(k, ">/") && !strings.HasPrefix(k, ">~") }) {
		return nil, errDynamic // go -C DIR writes a relative path in DIR
	}
	return w.keys, nil
}

type writeReader struct {
	spec     writerSpec
	args     []*syntax.Word
	r        reach
	keys     []string
	operands int
	chdir    bool
}

func (w *writeReader) read() error {
	for i := 0; i < len(w.args); i++ {
		s, ok := w.word(i)
		switch {
		case !ok:
			return errDynamic
		case s == "--":
			return w.rest(i + 1)
		case len(s) < 2 || s[0] != '-':
			if w.spec.command {
				return nil
			}
			if err := w.operand(i, s); err != nil {
				return err
			}
		case len(w.spec.dashed) > 0:
			next, err := w.dashedOption(s, i)
			if err != nil {
				return err
			}
			i += next
		case strings.HasPrefix(s, "--"):
			next, err := w.longOption(s[2:], i)
			if err != nil {
				return err
			}
			i += next
		default:
			next, err := w.shortOptions(s, i)
			if err != nil {
				return err
			}
			i += next
		}
	}
	if w.r.open {
		return errDynamic // fed words may be options or files written
	}
	return nil
}

// rest reads the operands after "--".
func (w *writeReader) rest(from int) error {
	if w.spec.command {
		return nil
	}
	for i := from; i < len(w.args); i++ {
		s, _ := w.word(i) // no option now, whatever it begins with
		if err := w.operand(i, s); err != nil {
			return err
		}
	}
	if w.r.open && (w.spec.all || w.spec.prefix != "" || w.spec.outOperand > w.operands) {
		return errDynamic
	}
	return nil
}

// word returns the text of args[i] when it is fixed, or, when computed,
// its fixed text up to the first expansion, if the word still expands to
// one word that cannot begin with "-": that text is not empty and does
// not, and no part is split or globbed (curl "http://h:$PORT/x").
func (w *writeReader) word(i int) (string, bool) {
	arg := w.args[i]
	if s, ok := joinParts(arg); ok {
		if w.r.subst != "" && strings.Contains(s, w.r.subst) {
			return s, w.r.paths // find's paths are no options
		}
		return s, true
	}
	var fixed strings.Builder
	open := true
	for _, part := range arg.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if open {
				fixed.WriteString(unescape(p.Value, ""))
			}
		case *syntax.SglQuoted:
			if open && !p.Dollar {
				fixed.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok {
					open = false
				} else if open {
					fixed.WriteString(unescape(lit.Value, "$`\"\\\n"))
				}
			}
			continue
		default:
			return "", false
		}
	}
	s := fixed.String()
	return s, s != "" && s[0] != '-'
}

// writtenOperand reports whether the operand of index n (from 0) is a
// file written.
func (w *writeReader) writtenOperand(n int) bool {
	return w.spec.all || (w.spec.outOperand > 0 && n == w.spec.outOperand-1)
}

// operand notes operand i, whose text is s, or, computed, begins with s:
// one that may begin with the prefix of a file written (dd "o$F") may
// name one.
func (w *writeReader) operand(i int, s string) error {
	n := w.operands
	w.operands++
	_, fixed := literal(w.args[i])
	switch {
	case w.writtenOperand(n):
		return w.written(i, "")
	case w.spec.prefix == "":
	case strings.HasPrefix(s, w.spec.prefix):
		return w.written(i, w.spec.prefix)
	case !fixed && strings.HasPrefix(w.spec.prefix, s):
		return errDynamic
	}
	return nil
}

// written keys the file args[i] names, after prefix.
func (w *writeReader) written(i int, prefix string) error {
	s, ok := literal(w.args[i])
	if !ok || (w.r.subst != "" && strings.Contains(s, w.r.subst)) {
		return errDynamic // the string replaced may be in the prefix too
	}
	return w.path(strings.TrimPrefix(s, prefix))
}

// path keys the file p names. One holding the string fed words replace
// (find's {}, xargs -I's) names each file fed, attached to its option
// (sort -o{}) or not.
func (w *writeReader) path(p string) error {
	if p == "" || (w.r.subst != "" && strings.Contains(p, w.r.subst)) || (w.spec.curl && globbed(p)) {
		return errDynamic
	}
	switch p {
	case "-", "/dev/null", "/dev/stdout", "/dev/stderr":
		return nil
	}
	w.keys = append(w.keys, ">"+p)
	return nil
}

// longOption reads --name[=value] at args[i]; next is 1 when its value
// is the next word.
func (w *writeReader) longOption(s string, i int) (next int, err error) {
	name, value, hasValue := strings.Cut(s, "=")
	prefixOf := func(o string) bool { return name != "" && strings.HasPrefix(o, name) }
	expanded := false
	if w.spec.curl {
		name, expanded = strings.CutPrefix(name, "expand-")
		if prefixOf("write-out") {
			return w.format(value, hasValue, i)
		}
	}
	switch {
	case expanded && slices.ContainsFunc(w.spec.long, prefixOf):
		return 0, errDynamic // its value's {{NAME}} is expanded
	case slices.ContainsFunc(w.spec.dynamicLong, prefixOf):
		return 0, errDynamic
	case slices.ContainsFunc(w.spec.long, prefixOf) && hasValue:
		return 0, w.path(value)
	case slices.ContainsFunc(w.spec.long, prefixOf):
		return 1, w.valueWord(i + 1)
	case slices.ContainsFunc(w.spec.longValues, prefixOf) && !hasValue:
		return 1, nil
	}
	return 0, nil
}

// dashedOption reads -name[=value] or --name[=value] at args[i]; next is
// 1 when its value is the next word. go -C DIR runs in DIR, where a
// relative path written names another file.
func (w *writeReader) dashedOption(s string, i int) (next int, err error) {
	name, value, hasValue := strings.Cut(strings.TrimPrefix(s[1:], "-"), "=")
	w.chdir = w.chdir || name == "C"
	switch {
	case !slices.Contains(w.spec.dashed, name):
		return 0, nil
	case hasValue:
		return 0, w.path(value)
	}
	return 1, w.valueWord(i + 1)
}

// valueWord keys the file the word at i names as an option's value.
func (w *writeReader) valueWord(i int) error {
	if i >= len(w.args) {
		if w.r.open {
			return errDynamic
		}
		return nil
	}
	return w.written(i, "")
}

// shortOptions reads a word of one-letter options at args[i]; next is 1
// when the last takes the next word as its value.
func (w *writeReader) shortOptions(s string, i int) (next int, err error) {
	for j := 1; j < len(s); j++ {
		c := s[j : j+1]
		switch {
		case strings.Contains(w.spec.dynamic, c):
			return 0, errDynamic
		case w.spec.curl && c == "w":
			return w.format(s[j+1:], j+1 < len(s), i)
		case strings.Contains(w.spec.writes, c) && j+1 < len(s):
			return 0, w.path(s[j+1:])
		case strings.Contains(w.spec.writes, c):
			return 1, w.valueWord(i + 1)
		case strings.Contains(w.spec.values, c) && j+1 < len(s):
			return 0, nil
		case strings.Contains(w.spec.values, c):
			return 1, nil
		}
	}
	return 0, nil
}

// format reads curl's -w value, attached (hasValue) or the next word
// after args[i]; next is 1 when it is the next word. One that names
// the file it writes to (%output{FILE}) or the file it is read from
// (@FILE, @- for stdin, which a heredoc fills) leaves the call without
// keys.
func (w *writeReader) format(value string, hasValue bool, i int) (next int, err error) {
	if !hasValue {
		if i+1 >= len(w.args) {
			return 0, nil
		}
		next = 1
		var ok bool
		if value, ok = joinParts(w.args[i+1]); !ok {
			return 0, errDynamic
		}
	}
	if strings.HasPrefix(value, "@") || strings.Contains(value, "%output{") {
		return 0, errDynamic
	}
	return next, nil
}

// globbed reports whether curl names the file p by the URL's globs: #
// and a digit stand for what the first, second... glob matched.
func globbed(p string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '#' && p[i+1] >= '0' && p[i+1] <= '9' {
			return true
		}
	}
	return false
}
