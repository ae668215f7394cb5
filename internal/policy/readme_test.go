package policy

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readmePackages are the packages README snippets may name, by the name
// they are used with. Each snippet is checked with all of them imported.
var readmePackages = map[string]string{
	"context":   "context",
	"conductor": modulePath + "/conductor",
	"contract":  modulePath + "/contract",
	"dispatch":  modulePath + "/dispatch",
	"mcp":       modulePath + "/dispatch/mcp",
	"openai":    modulePath + "/provider/openai",
	"tracing":   modulePath + "/conductor/tracing",
	"trace":     "go.opentelemetry.io/otel/trace",
}

// readmeGiven declares what the README's snippets take as given from the
// program around them.
const readmeGiven = `
var (
	ctx            context.Context
	tracerProvider trace.TracerProvider
	agent          *conductor.Agent
	deps           conductor.Deps
)
`

// goSnippets returns the README's go code blocks and the line each
// starts on.
func goSnippets(readme string) (snippets []string, lines []int) {
	var b strings.Builder
	in, start := false, 0
	for i, line := range strings.Split(readme, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```go":
			in, start = true, i+2
			b.Reset()
		case in && strings.TrimSpace(line) == "```":
			in = false
			snippets, lines = append(snippets, b.String()), append(lines, start)
		case in:
			b.WriteString(line + "\n")
		}
	}
	return snippets, lines
}

// snippetFile is a snippet as the body of a function, with every
// package of readmePackages imported and readmeGiven declared; a line
// directive makes errors name the README's lines.
func snippetFile(snippet string, line int) string {
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n")
	for _, name := range slices.Sorted(maps.Keys(readmePackages)) {
		fmt.Fprintf(&b, "\t%s %q\n", name, readmePackages[name])
	}
	fmt.Fprintf(&b, ")\n%s\nfunc _() {\n//line README.md:%d\n%s}\n", readmeGiven, line, snippet)
	return b.String()
}

// TestReadmeSnippetsCompile type-checks each go block of README.md against
// the current API, so a renamed field or function fails here rather than
// in a reader's editor. A snippet is a fragment: the variables it leaves
// unused and the packages it does not name are no error.
func TestReadmeSnippetsCompile(t *testing.T) {
	root := moduleRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	snippets, lines := goSnippets(string(readme))
	if len(snippets) == 0 {
		t.Fatal("policy: README.md has no go block; the check would test nothing")
	}
	exports, err := exportData(root, slices.Collect(maps.Values(readmePackages))...)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file := exports[path]
		if file == "" {
			return nil, fmt.Errorf("policy: no export data for %s", path)
		}
		return os.Open(file)
	})
	for i, snippet := range snippets {
		f, err := parser.ParseFile(fset, fmt.Sprintf("snippet%d.go", i), snippetFile(snippet, lines[i]), parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("the snippet does not parse: %v", err)
			continue
		}
		conf := types.Config{Importer: imp, Error: func(err error) {
			if te, ok := err.(types.Error); ok && te.Soft && (strings.Contains(te.Msg, "declared and not used") || strings.Contains(te.Msg, "imported and not used")) {
				return
			}
			t.Error(err)
		}}
		conf.Check("snippet", fset, []*ast.File{f}, nil)
	}
}
