package policy

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const modulePath = "github.com/batonrt/baton"

// importRules is DESIGN.md's layout table: a folder, then the folders of
// ours its packages may import. A package belongs to the row of the longest
// folder its path starts with, so provider/openai is in provider's row and
// store/storetest in store's; packages of one row may import each other.
// "*" allows anything. A folder with no row is a failure: add its row here
// when the design grows one.
const importRules = `
contract:
compactor:       contract
cadence:         contract, compactor
ledger:          contract
store:           contract, cadence
dispatch:        contract
turn:            contract, turn/endpoint
turn/endpoint:
provider:        contract, turn, turn/endpoint
conductor:       contract, compactor, cadence, ledger, store, dispatch, turn, internal/redact
wire:            contract, ledger, store, conductor, internal/redact
internal/policy:
internal/redact:
cmd:             *
examples:        *
`

type importTable map[string][]string

func parseRules(t testing.TB, text string) importTable {
	t.Helper()
	rules := importTable{}
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		folder, allowed, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("policy: bad rule line %q", line)
		}
		var list []string
		for a := range strings.SplitSeq(allowed, ",") {
			if a = strings.TrimSpace(a); a != "" {
				list = append(list, a)
			}
		}
		rules[strings.TrimSpace(folder)] = list
	}
	return rules
}

// row returns the folder whose row rel (a path inside the module) is in.
func (r importTable) row(rel string) (string, bool) {
	best := ""
	for folder := range r {
		if (rel == folder || strings.HasPrefix(rel, folder+"/")) && len(folder) > len(best) {
			best = folder
		}
	}
	return best, best != ""
}

// check returns the forbidden arrows among imports, which maps each
// package of the module (path relative to the module) to the packages of
// the module it imports.
func (r importTable) check(imports map[string][]string) []string {
	var bad []string
	for _, from := range slices.Sorted(maps.Keys(imports)) {
		fromRow, ok := r.row(from)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: no row in the import table", from))
			continue
		}
		for _, to := range imports[from] {
			if why := r.forbids(fromRow, from, to); why != "" {
				bad = append(bad, fmt.Sprintf("%s -> %s: %s", from, to, why))
			}
		}
	}
	return bad
}

// forbids says why the arrow from -> to breaks the table, or "" if it
// doesn't.
func (r importTable) forbids(fromRow, from, to string) string {
	allowed := r[fromRow]
	if slices.Contains(allowed, "*") {
		return ""
	}
	if isTestHelper(to) && !isTestHelper(from) {
		return "only test helper packages may import test helper " + to
	}
	toRow, ok := r.row(to)
	if !ok {
		return to + " has no row in the import table"
	}
	if toRow == fromRow || slices.Contains(allowed, toRow) {
		return ""
	}
	if len(allowed) == 0 {
		return fromRow + " may import nothing of ours"
	}
	return fmt.Sprintf("%s may import only %s", fromRow, strings.Join(allowed, ", "))
}

// isTestHelper reports whether rel is a test-helper package such as
// store/storetest: they hold assertions and generators, not runtime code.
func isTestHelper(rel string) bool {
	return strings.HasSuffix(rel[strings.LastIndexByte(rel, '/')+1:], "test")
}

// moduleImports lists the module's packages with `go list` and returns, for
// each, the packages of the module its non-test files import. Packages that
// don't build yet are listed anyway (-e), with the imports they have.
func moduleImports(t testing.TB) map[string][]string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("policy: no go command under CI: %v", err)
		}
		t.Skipf("policy: no go command: %v", err)
	}
	cmd := exec.Command(goBin, "list", "-e", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = moduleRoot(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("policy: go list: %v\n%s", err, stderr.String())
	}
	imports := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		from, ok := relPath(fields[0])
		if !ok {
			continue
		}
		imports[from] = []string{}
		for _, imp := range fields[1:] {
			if to, ok := relPath(imp); ok {
				imports[from] = append(imports[from], to)
			}
		}
	}
	return imports
}

// relPath returns the path of a package of the module relative to it.
func relPath(importPath string) (string, bool) {
	return strings.CutPrefix(importPath, modulePath+"/")
}

// moduleRoot is two folders up from internal/policy; it checks for go.mod
// so a moved package fails loudly rather than testing nothing.
func moduleRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.Contains(b, []byte("module "+modulePath+"\n")) {
		t.Fatalf("policy: %s is not the root of %s (%v)", root, modulePath, err)
	}
	return root
}
