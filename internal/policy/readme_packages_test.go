package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// packageTable returns the rows of README.md's table under "## Packages".
func packageTable(readme string) string {
	_, rest, ok := strings.Cut(readme, "\n## Packages\n")
	if !ok {
		return ""
	}
	var b strings.Builder
	for line := range strings.Lines(rest) {
		if strings.HasPrefix(line, "## ") {
			break
		}
		if strings.HasPrefix(line, "|") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// codeSpans returns the text of each `code span` in text, without a
// trailing slash.
func codeSpans(text string) []string {
	var spans []string
	parts := strings.Split(text, "`")
	for i := 1; i < len(parts); i += 2 {
		spans = append(spans, strings.TrimSuffix(parts[i], "/"))
	}
	return spans
}

// unnamedPackages returns the packages (paths relative to the module) no
// span names: a span names a package by its path or by the end of its
// path that the row's folder leaves out (`postgres/pgtest/` in store's
// row, `endpoint` in provider's).
func unnamedPackages(pkgs, spans []string) []string {
	var missing []string
	for _, p := range pkgs {
		if strings.HasPrefix(p, "examples/") {
			continue // the README links examples/ as a whole
		}
		named := slices.ContainsFunc(spans, func(s string) bool {
			return s != "" && (p == s || strings.HasSuffix(p, "/"+s))
		})
		if !named {
			missing = append(missing, p)
		}
	}
	return missing
}

func TestUnnamedPackages(t *testing.T) {
	spans := codeSpans("| `store/` | ... `postgres/pgtest/` ... |\n| `provider/` | `openai`, `endpoint` |")
	got := unnamedPackages([]string{"store", "store/postgres/pgtest", "store/vfs", "provider/openai", "turn/endpoint", "examples/basic"}, spans)
	if diff := cmp.Diff([]string{"store/vfs"}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestReadmeNamesEveryPackage checks that README.md's package map names
// every package of the module, so a reader finds each one's job there.
func TestReadmeNamesEveryPackage(t *testing.T) {
	root := moduleRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	table := packageTable(string(readme))
	if table == "" {
		t.Fatal("policy: README.md has no table under ## Packages")
	}
	var pkgs []string
	for p := range moduleImports(t) {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range unnamedPackages(pkgs, codeSpans(table)) {
		t.Errorf("README.md's package table does not name %s: add it to its folder's row", p)
	}
}
