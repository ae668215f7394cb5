package builtin

// siblingChangers are the other coreutils that change the files named
// on their line as rm, ln and chmod do: unlink and shred remove or wipe
// each file, link makes its second operand a hard link to its first,
// and chown and chgrp give away each file after the owner or group
// (every one, given --reference). Keyed by name alone, approving unlink
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
