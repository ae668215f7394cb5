package policy

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// impurePackages may not be imported by pure code, nor any package below
// them (os/exec, io/fs, net/http, sync/atomic, ...).
var impurePackages = []string{
	"time", "math/rand", "math/rand/v2", "crypto/rand", "os", "io", "net",
	"sync", "context", "reflect",
}

// clockCalls are the time functions that read the clock or wait on it.
var clockCalls = []string{"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "Tick", "NewTicker", "NewTimer"}

// randomPackages are packages every call of which draws randomness.
var randomPackages = []string{"math/rand", "math/rand/v2", "crypto/rand"}

// A finding is one broken purity rule.
type finding struct {
	pos  token.Position
	rule string
}

func (f finding) String() string { return fmt.Sprintf("%s:%d: %s", f.pos.Filename, f.pos.Line, f.rule) }

// purityChecker walks type-checked files and collects findings.
type purityChecker struct {
	fset     *token.FileSet
	info     *types.Info
	findings []finding
	// sortedArgs holds the maps.Keys/Values/All calls that feed straight
	// into slices.Sorted*, whose order is therefore fixed.
	sortedArgs map[*ast.CallExpr]bool
}

func checkPurity(fset *token.FileSet, files []*ast.File, info *types.Info) []finding {
	c := &purityChecker{fset: fset, info: info, sortedArgs: map[*ast.CallExpr]bool{}}
	for _, f := range files {
		c.checkImports(f)
		ast.Inspect(f, c.markSorted)
		ast.Inspect(f, c.visit)
	}
	slices.SortFunc(c.findings, func(a, b finding) int {
		return strings.Compare(a.String(), b.String())
	})
	return c.findings
}

func (c *purityChecker) report(n ast.Node, format string, args ...any) {
	c.findings = append(c.findings, finding{pos: c.fset.Position(n.Pos()), rule: fmt.Sprintf(format, args...)})
}

func (c *purityChecker) checkImports(f *ast.File) {
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		for _, bad := range impurePackages {
			if path == bad || strings.HasPrefix(path, bad+"/") {
				c.report(spec, "imports %q (forbidden in pure code)", path)
				break
			}
		}
	}
}

func (c *purityChecker) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.GoStmt:
		c.report(n, "go statement (starts a goroutine)")
	case *ast.ChanType:
		c.report(n, "channel type")
	case *ast.SendStmt:
		c.report(n, "channel send")
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			c.report(n, "channel receive")
		}
	case *ast.SelectStmt:
		c.report(n, "select statement")
	case *ast.RangeStmt:
		c.checkRange(n)
	case *ast.CallExpr:
		c.checkCall(n)
	}
	return true
}

func (c *purityChecker) checkRange(n *ast.RangeStmt) {
	tv, ok := c.info.Types[n.X]
	if !ok || tv.Type == nil {
		return
	}
	switch tv.Type.Underlying().(type) {
	case *types.Map:
		c.report(n, "range over map (random order; use slices.Sorted(maps.Keys(m)))")
	case *types.Chan:
		c.report(n, "range over channel")
	}
}

func (c *purityChecker) checkCall(n *ast.CallExpr) {
	pkg, name, ok := c.callee(n)
	if !ok {
		return
	}
	switch {
	case pkg == "time" && slices.Contains(clockCalls, name):
		c.report(n, "calls time.%s (reads the clock)", name)
	case slices.Contains(randomPackages, pkg):
		c.report(n, "calls %s.%s (draws randomness)", pkg, name)
	case pkg == "maps" && (name == "Keys" || name == "Values" || name == "All") && !c.sortedArgs[n]:
		c.report(n, "calls maps.%s outside slices.Sorted (random order)", name)
	}
}

// markSorted records maps iterators passed straight to slices.Sorted*.
func (c *purityChecker) markSorted(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return true
	}
	if pkg, name, ok := c.callee(call); ok && pkg == "slices" && strings.HasPrefix(name, "Sorted") {
		if arg, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok {
			c.sortedArgs[arg] = true
		}
	}
	return true
}

// callee returns the package path and name of a call to a package-level
// function, as qualified by pkg.Name in the source.
func (c *purityChecker) callee(call *ast.CallExpr) (pkg, name string, ok bool) {
	fun := ast.Unparen(call.Fun)
	if ix, isIndex := fun.(*ast.IndexExpr); isIndex {
		fun = ix.X
	}
	if ix, isIndex := fun.(*ast.IndexListExpr); isIndex {
		fun = ix.X
	}
	sel, isSel := fun.(*ast.SelectorExpr)
	if !isSel {
		return "", "", false
	}
	id, isIdent := sel.X.(*ast.Ident)
	if !isIdent {
		return "", "", false
	}
	pn, isPkg := c.info.Uses[id].(*types.PkgName)
	if !isPkg {
		return "", "", false
	}
	return pn.Imported().Path(), sel.Sel.Name, true
}

// sourceImporter type-checks the module's packages from source, so that
// code mid-edit still gets checked, and reads every other package from the
// export data `go list -export` leaves in the build cache, which is much
// faster than checking the standard library from source. A package with no
// export data is stood in for by an empty one: the purity rules only need
// the types of declarations the checked code can see.
type sourceImporter struct {
	fset    *token.FileSet
	modDir  string
	exports map[string]string
	gc      types.ImporterFrom
	checked map[string]*types.Package
}

func newSourceImporter(fset *token.FileSet, modDir string, exports map[string]string) *sourceImporter {
	lookup := func(path string) (io.ReadCloser, error) {
		file := exports[path]
		if file == "" {
			return nil, fmt.Errorf("policy: no export data for %s", path)
		}
		return os.Open(file)
	}
	return &sourceImporter{
		fset:    fset,
		modDir:  modDir,
		exports: exports,
		gc:      importer.ForCompiler(fset, "gc", lookup).(types.ImporterFrom),
		checked: map[string]*types.Package{},
	}
}

func (im *sourceImporter) Import(path string) (*types.Package, error) {
	return im.ImportFrom(path, "", 0)
}

func (im *sourceImporter) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if p, ok := im.checked[path]; ok {
		return p, nil
	}
	var p *types.Package
	if rel, ours := relPath(path); ours {
		files, err := parseDir(im.fset, filepath.Join(im.modDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		p, _, _ = typeCheck(im.fset, path, files, im)
	} else if im.exports[path] != "" {
		var err error
		if p, err = im.gc.ImportFrom(path, dir, mode); err != nil {
			return nil, err
		}
	} else {
		p = types.NewPackage(path, path[strings.LastIndexByte(path, '/')+1:])
		p.MarkComplete()
	}
	im.checked[path] = p
	return p, nil
}

// exportData returns the export data files of pkgs and all their
// dependencies, building what the cache lacks. Packages that fail to build
// are simply missing from the result.
func exportData(modDir string, pkgs ...string) (map[string]string, error) {
	args := append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = modDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("policy: go list -export: %w\n%s", err, stderr.String())
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "\t")
		if file != "" {
			exports[path] = file
		}
	}
	return exports, nil
}

// parseDir parses a folder's non-test Go files for the current platform.
func parseDir(fset *token.FileSet, dir string) ([]*ast.File, error) {
	bp, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("policy: %s: %w", dir, err)
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("policy: %w", err)
		}
		files = append(files, f)
	}
	return files, nil
}

// typeCheck checks files and returns what it learned even when the code
// has errors, with the errors: a package mid-edit still gets every check
// that can run.
func typeCheck(fset *token.FileSet, path string, files []*ast.File, imp types.Importer) (*types.Package, *types.Info, []error) {
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	var errs []error
	conf := types.Config{Importer: imp, Error: func(err error) { errs = append(errs, err) }}
	p, _ := conf.Check(path, fset, files, info)
	return p, info, errs
}
