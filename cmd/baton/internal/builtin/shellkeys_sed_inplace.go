package builtin

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// sedWrites are the keys of the files sed -i (--in-place) edits: each
// file operand, after the script when no -e gives one, and its backup,
// the file's name and the suffix -i gives (GNU replaces a * in it by
// the file's name, a file no key follows). BSD's sed takes the word
// after a lone -i as that suffix (sed -i -e s/a/b/ f keeps f-e), so
// those backups are named too. A file computed, globbed or fed, or an
// option after an operand, which BSD reads as a file, leaves the call
// without keys.
func sedWrites(args []*syntax.Word, r reach) ([]string, error) {
	var c sedCall
	if err := c.read(args, r); err != nil || !c.inPlace {
		return nil, err
	}
	if c.unknown || c.interleaved || r.open {
		return nil, errDynamic
	}
	files := c.words
	if len(c.scripts) == 0 && !c.fromFile && len(files) > 0 {
		files = files[1:]
	}
	var keys []string
	for _, w := range files {
		p, ok := literal(w)
		if !ok || (r.subst != "" && strings.Contains(p, r.subst)) {
			return nil, errDynamic
		}
		keys = append(keys, ">"+p)
	}
	backups, err := c.backups(files)
	return append(keys, backups...), err
}

// backups names the backups of the files sed -i edits: GNU's, by the
// suffix attached to -i, and BSD's, by the word after a lone -i, of the
// files BSD reads (not the first when that word is GNU's script, as BSD
// then reads that file's name as the script).
func (c *sedCall) backups(files []*syntax.Word) ([]string, error) {
	var keys []string
	add := func(files []*syntax.Word, suffix string) error {
		if strings.Contains(suffix, "*") {
			return errDynamic
		}
		for _, w := range files {
			if p, _ := literal(w); suffix != "" {
				keys = append(keys, ">"+p+suffix)
			}
		}
		return nil
	}
	if err := add(files, c.suffix); err != nil || c.bsdSuffix == nil {
		return keys, err
	}
	suffix, _ := joinParts(c.bsdSuffix)
	if suffix != "" {
		if _, ok := literal(c.bsdSuffix); !ok {
			return nil, errDynamic
		}
	}
	if len(c.scripts) == 0 && len(c.words) > 0 && c.words[0] == c.bsdSuffix && len(files) > 0 {
		files = files[1:]
	}
	return keys, add(files, suffix)
}
