package policy

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The standard library is type-checked once per test binary and shared:
// checking it again for every sample would take most of the run.
var (
	sharedFset *token.FileSet
	sharedImp  *sourceImporter
)

// samplePackages are the standard packages the checker's samples import.
var samplePackages = []string{
	"time", "math/rand", "math/rand/v2", "crypto/rand", "os", "io/fs", "net/url",
	"sync/atomic", "context", "reflect", "maps", "slices", "strings",
}

func sharedImporter(t *testing.T) (*token.FileSet, *sourceImporter) {
	t.Helper()
	if sharedImp == nil {
		root := moduleRoot(t)
		exports, err := exportData(root, append([]string{"./cadence/..."}, samplePackages...)...)
		if err != nil {
			t.Fatal(err)
		}
		sharedFset = token.NewFileSet()
		sharedImp = newSourceImporter(sharedFset, root, exports)
	}
	return sharedFset, sharedImp
}

func TestImportGraph(t *testing.T) {
	rules := parseRules(t, importRules)
	imports := moduleImports(t)
	for _, need := range []string{"contract", "internal/policy"} {
		if _, ok := imports[need]; !ok {
			t.Fatalf("go list did not report %s; the check would test nothing", need)
		}
	}
	for _, arrow := range rules.check(imports) {
		t.Error(arrow)
	}
}

func TestImportRulesCatchForbiddenArrows(t *testing.T) {
	rules := parseRules(t, importRules)
	imports := map[string][]string{
		"contract":                {"compactor"},
		"compactor":               {"contract", "cadence"},
		"cadence":                 {"contract", "compactor"},
		"cadence/cadencetest":     {"cadence", "contract"},
		"ledger":                  {"contract", "store"},
		"store":                   {"contract", "cadence", "store/vfs", "compactor"},
		"store/storetest":         {"store", "contract"},
		"store/vfs":               {},
		"turn":                    {"contract", "provider/openai"},
		"turn/endpoint":           {"contract"},
		"turn/relay":              {"turn", "turn/endpoint", "provider"},
		"provider/openai":         {"contract", "turn", "turn/endpoint", "provider"},
		"conductor":               {"cadence", "store", "turn", "provider/scripted", "cadence/cadencetest"},
		"conductor/conductortest": {"conductor", "store/storetest"},
		"wire":                    {"contract", "cadence", "conductor", "dispatch"},
		"wire/agui":               {"contract", "wire/internal/track"},
		"cmd/baton":               {"provider/openai", "wire", "conductor", "store/storetest"},
		"examples/hello":          {"provider/scripted", "conductor"},
		"internal/policy":         {},
		"internal/unknown":        {"contract"},
	}
	want := []string{
		"compactor -> cadence: compactor may import only contract",
		"conductor -> provider/scripted: conductor may import only contract, compactor, cadence, ledger, store, dispatch, turn, internal/redact",
		"conductor -> cadence/cadencetest: only test helper packages may import test helper cadence/cadencetest",
		"contract -> compactor: contract may import nothing of ours",
		"internal/unknown: no row in the import table",
		"ledger -> store: ledger may import only contract",
		"store -> compactor: store may import only contract, cadence",
		"turn -> provider/openai: turn may import only contract, turn/endpoint",
		"turn/endpoint -> contract: turn/endpoint may import nothing of ours",
		"turn/relay -> provider: turn may import only contract, turn/endpoint",
		"wire -> cadence: wire may import only contract, ledger, store, conductor, internal/redact",
		"wire -> dispatch: wire may import only contract, ledger, store, conductor, internal/redact",
	}
	if diff := cmp.Diff(want, rules.check(imports)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestCadencePurity(t *testing.T) {
	root := moduleRoot(t)
	dir := filepath.Join(root, "cadence")
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		t.Fatal("policy: cadence/ is missing; the purity rule would check nothing")
	}
	fset, imp := sharedImporter(t)
	files, err := parseDir(fset, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("policy: cadence/ has no Go files; the purity rule would check nothing")
	}
	_, info, errs := typeCheck(fset, modulePath+"/cadence", files, imp)
	for _, err := range errs {
		t.Logf("type-checking cadence (checks needing types may miss this spot): %v", err)
	}
	if len(errs) == 0 {
		// Without types the map-range rule would pass silently.
		for _, pos := range untypedRanges(files, info) {
			t.Errorf("%s: range expression has no type; the map-range rule cannot see it", fset.Position(pos))
		}
	}
	for _, f := range checkPurity(fset, files, info) {
		if rel, err := filepath.Rel(root, f.pos.Filename); err == nil {
			f.pos.Filename = rel
		}
		t.Error(f)
	}
}

func TestPurityCheckerCatchesEachRule(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"clean", `import ("maps"; "slices"; "strings")
			func f(m map[string]int, xs []int) (n int) {
				for _, k := range slices.Sorted(maps.Keys(m)) { n += m[k] }
				for _, v := range slices.Sorted(maps.Values(m)) { n += v }
				for i := range xs { n += i }
				for i := range 3 { n += i }
				return n + len(strings.Fields("a b"))
			}`, nil},
		{"time import and clock calls", `import "time"
			func f() { _ = time.Now(); time.Sleep(1); _ = time.Duration(3) }`,
			[]string{`3: imports "time" (forbidden in pure code)`, "4: calls time.Now (reads the clock)", "4: calls time.Sleep (reads the clock)"}},
		{"renamed time import", `import clock "time"
			func f() { _ = clock.Since(clock.Time{}) }`,
			[]string{`3: imports "time" (forbidden in pure code)`, "4: calls time.Since (reads the clock)"}},
		{"randomness", `import ("math/rand/v2"; crand "crypto/rand")
			func f() { _ = rand.IntN(3); _ = crand.Text() }`,
			[]string{`3: imports "crypto/rand" (forbidden in pure code)`, `3: imports "math/rand/v2" (forbidden in pure code)`,
				"4: calls crypto/rand.Text (draws randomness)", "4: calls math/rand/v2.IntN (draws randomness)"}},
		{"os io net sync context reflect and subpackages", `import ("os"; "io/fs"; "net/url"; "sync/atomic"; "context"; "reflect"; "math/rand")
			var _ = []any{os.Args, fs.ModeDir, url.Parse, atomic.Int64{}, context.Background, reflect.TypeOf, rand.Int}`,
			[]string{`3: imports "context" (forbidden in pure code)`, `3: imports "io/fs" (forbidden in pure code)`,
				`3: imports "math/rand" (forbidden in pure code)`, `3: imports "net/url" (forbidden in pure code)`,
				`3: imports "os" (forbidden in pure code)`, `3: imports "reflect" (forbidden in pure code)`,
				`3: imports "sync/atomic" (forbidden in pure code)`}},
		{"go statement", `func f() { go func() {}() }`, []string{"3: go statement (starts a goroutine)"}},
		{"channels", `func f(c chan int) { c <- 1; _ = <-c; select {} }`,
			[]string{"3: channel receive", "3: channel send", "3: channel type", "3: select statement"}},
		{"range over channel", `func f(c <-chan int) { for range c {} }`,
			[]string{"3: channel type", "3: range over channel"}},
		{"range over map", `type M map[string]int
			func f(m M, n map[int]bool) { for range m {}; for k, v := range n { _, _ = k, v } }`,
			[]string{"4: range over map (random order; use slices.Sorted(maps.Keys(m)))", "4: range over map (random order; use slices.Sorted(maps.Keys(m)))"}},
		{"range over map from a call", `func g() map[string]int { return nil }
			func f() { for k := range g() { _ = k } }`,
			[]string{"4: range over map (random order; use slices.Sorted(maps.Keys(m)))"}},
		{"unsorted map iterators", `import ("maps"; "slices")
			func f(m map[string]int) { for range maps.Keys(m) {}; _ = slices.Collect(maps.Values(m)); for range maps.All(m) {} }`,
			[]string{"4: calls maps.All outside slices.Sorted (random order)", "4: calls maps.Keys outside slices.Sorted (random order)", "4: calls maps.Values outside slices.Sorted (random order)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fset, imp := sharedImporter(t)
			f, err := parser.ParseFile(fset, "sample.go", "package sample\n\n"+tt.src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files := []*ast.File{f}
			_, info, errs := typeCheck(fset, "sample", files, imp)
			if len(errs) > 0 {
				t.Fatalf("sample does not type-check: %v", errs)
			}
			var got []string
			for _, fd := range checkPurity(fset, files, info) {
				got = append(got, fd.String()[len("sample.go:"):])
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func untypedRanges(files []*ast.File, info *types.Info) []token.Pos {
	var missing []token.Pos
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if r, ok := n.(*ast.RangeStmt); ok {
				if tv, ok := info.Types[r.X]; !ok || tv.Type == nil {
					missing = append(missing, r.X.Pos())
				}
			}
			return true
		})
	}
	return missing
}
