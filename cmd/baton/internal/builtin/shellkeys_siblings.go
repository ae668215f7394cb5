package builtin

import "errors"

// siblingChangers are the other programs that change the files named
// on their line as rm, ln and chmod do: unlink and shred remove or wipe
// each file, link makes its second operand a hard link to its first,
// chown and chgrp give away each file after the owner or group
// (every one, given --reference), setfacl grants access to each file,
// mkdir, rmdir and mkfifo make or remove each, and mknod its first
// operand (rmdir -p removes the folders above too, and setfacl
// --restore changes the files a file names, so those have no keys). Keyed by name alone, approving unlink
// a.txt would approve unlink ~/.bashrc, and link would make any file a
// name that approved writes reach.
var siblingChangers = map[string]changerSpec{
	"unlink": {long: withInfo(map[string]optKind{})},
	"link":   {dest: true, links: true, file: true, long: withInfo(map[string]optKind{})},
	"shred": {short: shortOpts("fuvxz", "ns", nil), long: withInfo(map[string]optKind{
		"force": optFlag, "iterations": optValue, "random-source": optValue, "size": optValue,
		"remove": optOptional, "verbose": optFlag, "exact": optFlag, "zero": optFlag,
	})},
	"chown": {short: shortOpts("cfvhRHLP", "", nil), mode: true, long: withInfo(ownerLongs(map[string]optKind{
		"from": optValue,
	}))},
	"chgrp": {short: shortOpts("cfvhRHLP", "", nil), mode: true, long: withInfo(ownerLongs(map[string]optKind{}))},
	"mkdir": {short: shortOpts("pvZ", "m", nil), long: withInfo(map[string]optKind{
		"mode": optValue, "parents": optFlag, "verbose": optFlag, "context": optOptional,
	})},
	"rmdir": {short: shortOpts("v", "", map[byte]optKind{'p': optUnsafe}), long: withInfo(map[string]optKind{
		"ignore-fail-on-non-empty": optFlag, "parents": optUnsafe, "verbose": optFlag,
	})},
	"mkfifo": {short: shortOpts("Z", "m", nil), long: withInfo(nodeLongs())},
	"mknod":  {short: shortOpts("Z", "m", nil), first: true, long: withInfo(nodeLongs())},
	"setfacl": {short: shortOpts("bkndRLP", "mMxX", map[byte]optKind{'v': optInfo, 'h': optInfo}), stdinNames: true,
		long: withInfo(map[string]optKind{
			"modify": optValue, "modify-file": optValue, "remove": optValue, "remove-file": optValue,
			"set": optValue, "set-file": optValue, "remove-all": optFlag, "remove-default": optFlag,
			"mask": optFlag, "no-mask": optFlag, "default": optFlag, "test": optFlag, "recursive": optFlag,
			"logical": optFlag, "physical": optFlag, "restore": optUnsafe,
		})},
}

// nodeLongs are the long options of mkfifo and mknod.
func nodeLongs() map[string]optKind {
	return map[string]optKind{"mode": optValue, "context": optOptional}
}

// ownerLongs adds the long options chown and chgrp share to long.
func ownerLongs(long map[string]optKind) map[string]optKind {
	for _, name := range []string{"changes", "dereference", "no-dereference", "no-preserve-root",
		"preserve-root", "quiet", "silent", "recursive", "verbose"} {
		long[name] = optFlag
	}
	long["reference"] = optMode
	return long
}

// changerOf returns how the program base reads the files it changes,
// if it is one that does.
func changerOf(base string) (changerSpec, bool) {
	if spec, ok := changers[base]; ok {
		return spec, true
	}
	spec, ok := siblingChangers[base]
	return spec, ok
}

// errSplits: split and csplit write files named by a prefix and a
// suffix they count up (out_aa, out_ab, ... or xx00, xx01, ...), which
// no key spells, so approving split a.txt out_ must not approve split
// a.txt ~/.bashrc.
var errSplits = errors.New("split writes files its line names only in part")
