package builtin

import (
	"encoding/json"
	"slices"
	"testing"
)

// FuzzShellKeys: any line gets keys, sorted and without repeats, or an
// error, and never panics, however odd its options, quotes or words.
func FuzzShellKeys(f *testing.F) {
	for _, line := range slices.Concat(innocentWrites, innocentQueries, clientStdinAttacks, innocentChanges, innocentMoreQueries, innocentEnvQueries, innocentSiblings, innocentArchives, []string{
		"psql -X -qAtc '\\! rm -rf x'", "sqlite3 -cmd .tables -init x a.db .tables", "mysql -uroot -p -D test -e x",
		"dd if=f of=x conv=notrunc", "uniq --skip-f 1 f out", "sort -ro~/.bashrc f", "curl -sSLo x --output-dir d u",
		"wget -P d -O x u", "find . -exec sort {} -o{} \\;", "echo $((FOO+a[N]))", "git diff --output=x",
		"go test -exec x ./...", "less -ox f", "npx -c 'x'", "tee -a x <<< y", "xargs -I F dd of=F",
		"cp -rt d --parents a/b c", "mv --no-t -- -x y", "ln -sft~ /a/b", "chmod -w 644 f", "sed -i -e p -- f",
		"ln -sr ../a d/b", "cp -sT /a b", "link a b c", "chown --from=a: -R b f",
		"tar cfC a.tar d x", "tar --cr --file= -g", "rsync -a -- -x d/", "mknod -- -m p", "xargs -R",
	}) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args, _ := json.Marshal(shellArgs{Command: line})
		keys, err := shellKeys(args)
		if err != nil {
			return
		}
		if !slices.IsSorted(keys) || len(slices.Compact(slices.Clone(keys))) != len(keys) {
			t.Errorf("keys %q are not sorted and distinct", keys)
		}
	})
}
