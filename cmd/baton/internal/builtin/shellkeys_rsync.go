package builtin

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// rsyncShort are rsync's one-letter options: -b keeps backups, -K
// writes through a link to a folder in the destination, -T and -e
// (and -M) name a folder or a program of their own.
var rsyncShort = shortOpts("arlptgoDvzhPnucqixdmCEAXSWOJUNykLHFI846s", "fB",
	map[byte]optKind{'b': optUnsafe, 'K': optUnsafe, 'T': optUnsafe, 'e': optUnsafe, 'M': optUnsafe, 'R': optUnsafe})

// rsyncLong are rsync's long options by what they do. Those that write
// elsewhere than the destination (--backup-dir, --partial-dir,
// --temp-dir, --log-file, --write-batch), link to or remove other files
// (--link-dest, --remove-source-files), write through links (--inplace,
// --keep-dirlinks), take the files from a file or run as a daemon are
// unsafe: the destination's key would not name what they change.
var rsyncLong = func() map[string]optKind {
	m := map[string]optKind{"help": optInfo, "version": optInfo}
	for kind, names := range map[optKind]string{
		optValue: "exclude include exclude-from include-from filter chmod chown usermap groupmap max-size " +
			"min-size max-delete timeout contimeout bwlimit compress-level compress-choice zc checksum-choice cc " +
			"out-format log-file-format modify-window block-size outbuf iconv protocol port sockopts " +
			"skip-compress compare-dest copy-dest stop-after stop-at password-file info debug stderr max-alloc " +
			"compress-threads checksum-seed",
		optUnsafe: "backup backup-dir suffix link-dest temp-dir partial-dir log-file write-batch " +
			"only-write-batch read-batch remove-source-files files-from daemon config keep-dirlinks inplace " +
			"append append-verify write-devices relative rsh rsync-path remote-option address fake-super super " +
			"munge-links",
		optFlag: "archive recursive links perms times group owner devices specials verbose compress " +
			"human-readable partial progress dry-run update checksum quiet itemize-changes one-file-system " +
			"no-relative dirs prune-empty-dirs cvs-exclude executability acls xattrs sparse whole-file " +
			"no-whole-file omit-dir-times omit-link-times fuzzy copy-dirlinks copy-links copy-unsafe-links " +
			"safe-links hard-links delete delete-before delete-during delete-delay delete-after " +
			"delete-excluded delete-missing-args ignore-missing-args ignore-existing existing ignore-times " +
			"size-only numeric-ids stats list-only mkpath no-motd 8-bit-output ipv4 ipv6 crtimes atimes " +
			"open-noatime preallocate force ignore-errors no-implied-dirs from0 protect-args secluded-args " +
			"no-perms no-times no-owner no-group no-links no-recursive",
	} {
		for _, name := range strings.Fields(names) {
			m[name] = kind
		}
	}
	return m
}()

// rsyncWrites is the key of the file or folder an rsync call writes,
// its last operand, ">" and the path without its trailing slashes, as a
// redirection's: approving rsync -a src/ dst/ must not approve rsync -a
// src/ ~/. The --delete options remove files under it only. A lone
// operand is listed, not written. A call whose words are computed or
// fed, whose options are not all known or write elsewhere (rsyncLong),
// or whose destination is on another host (HOST:PATH, rsync://) has no
// keys.
func rsyncWrites(args []*syntax.Word, r reach) ([]string, error) {
	if r.open || r.fed(args) {
		return nil, errDynamic
	}
	c := changeCall{spec: changerSpec{short: rsyncShort, long: rsyncLong}, args: args}
	if err := c.readPermuted(); err != nil {
		return nil, err
	}
	if c.info || len(c.operands) < 2 {
		return nil, nil
	}
	dest, ok := literal(args[c.operands[len(c.operands)-1]])
	if !ok || strings.Contains(dest, ":") {
		return nil, errDynamic
	}
	if trimmed := strings.TrimRight(dest, "/"); trimmed != "" {
		dest = trimmed
	}
	return []string{">" + dest}, nil
}

// readPermuted reads a call's words as popt and GNU's getopt do, where
// an option may follow an operand; a word that expands (a glob, which
// may match a file named as an option) may be any option.
func (c *changeCall) readPermuted() error {
	for i := 0; i < len(c.args); i++ {
		s, ok := fixedText(c.args[i])
		switch {
		case !ok:
			return errDynamic
		case s == "--":
			for j := i + 1; j < len(c.args); j++ {
				c.operands = append(c.operands, j)
			}
			return nil
		case len(s) < 2 || s[0] != '-':
			c.operands = append(c.operands, i)
			continue
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
