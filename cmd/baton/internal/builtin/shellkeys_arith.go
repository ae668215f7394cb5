package builtin

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// errArithData: bash reads a variable's value as an expression wherever
// arithmetic reads the variable ($((x)), ${a[x]}, ${s:x}, let, declare -i,
// test -v, ${!x}), and runs the command substitutions of a subscript in
// it: x='a[$(rm -rf ~)]' makes echo $((x)) run rm. A line where a value
// the line does not fix (read, for x in, $1, $(...), a name) reaches
// arithmetic runs what that value holds.
var errArithData = errors.New("arithmetic reads a value the line does not fix, and bash runs what it holds")

// lineFed are the variables bash sets from the line's text or its input
// without an assignment the walk sees: select's REPLY, the -c string.
var lineFed = map[string]bool{
	"REPLY": true, "OPTARG": true, "MAPFILE": true, "READLINE_LINE": true, "_": true,
	"BASH_EXECUTION_STRING": true, "BASH_COMMAND": true, "BASH_ARGV": true, "BASH_REMATCH": true,
}

// arithState gathers, over a line and the lines nested in it, the
// variables arithmetic reads and those given a value that is not inert:
// an assignment outside sh -c reaches the arithmetic inside it, and a
// loop or function runs an assignment written after the read first.
type arithState struct {
	read    map[string]bool
	tainted map[string]bool
}

func (a *arithState) use(name string) {
	if a.read == nil {
		a.read = map[string]bool{}
	}
	a.read[name] = true
}

func (a *arithState) taint(name string) {
	if a.tainted == nil {
		a.tainted = map[string]bool{}
	}
	a.tainted[name] = true
}

// taintKeys notes the values NAME=VALUE keys give: any but inert text;
// NAME=* is a computed value, as no fixed one holds a *.
func (a *arithState) taintKeys(keys []string) {
	for _, k := range keys {
		name, value, ok := strings.Cut(k, "=")
		if ok && (value == "*" || !inertText(value)) {
			a.taint(strings.TrimSuffix(name, "+"))
		}
	}
}

// check refuses the line when arithmetic reads a variable whose value
// may hold a subscript.
func (a *arithState) check() error {
	for name := range a.read {
		if a.tainted[name] || lineFed[name] {
			return errArithData
		}
	}
	return nil
}

// inertText reports whether text read as an arithmetic expression names
// nothing: numbers (10, 0x1f, 16#ff) and operators, no variable names,
// subscripts, expansions, quotes or tilde. "*" stays: an assignment's
// value is not a pattern.
func inertText(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			for i < len(s) && numberByte(s[i]) {
				i++
			}
		case strings.IndexByte(" \t\n+-*/%<>=!&|^?:(),.{}", c) >= 0:
			i++
		default:
			return false
		}
	}
	return true
}

func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '@' || c == '#'
}

// inertWord reports whether a word's value is inert text once expanded:
// fixed inert text, arithmetic results and lengths. A globbed word (a for
// loop's item) may not hold * or ?, which name files.
func inertWord(w *syntax.Word, globbed bool) bool {
	for _, part := range w.Parts {
		if !inertPart(part, globbed) {
			return false
		}
	}
	return true
}

func inertPart(part syntax.WordPart, globbed bool) bool {
	switch p := part.(type) {
	case *syntax.Lit:
		return inertText(unescape(p.Value, "")) && !(globbed && strings.ContainsAny(p.Value, "*?"))
	case *syntax.SglQuoted:
		return !p.Dollar && inertText(p.Value)
	case *syntax.DblQuoted:
		for _, inner := range p.Parts {
			if !inertPart(inner, false) {
				return false
			}
		}
		return !p.Dollar
	case *syntax.ArithmExp:
		return true
	case *syntax.ParamExp:
		return numericParam(p)
	}
	return false
}

// numericParam reports whether an expansion gives a number: ${#x}, $#,
// $?, $$, $!.
func numericParam(p *syntax.ParamExp) bool {
	if p.Excl || p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Names != 0 || p.Width {
		return false
	}
	return p.Length || (p.Index == nil && p.Param != nil && strings.Contains("#?$!", p.Param.Value) && len(p.Param.Value) == 1)
}

// arithSets notes the values a node gives variables: taints those that
// are not inert. Arithmetic assignments give numbers; the keys of other
// setters are noted where they are made (taintKeys).
func arithSets(n syntax.Node, st *keyState) {
	switch n := n.(type) {
	case *syntax.Assign:
		if n.Name == nil || n.Naked {
			return
		}
		inert := n.Value == nil || inertWord(n.Value, false)
		if n.Array != nil {
			for _, e := range n.Array.Elems {
				inert = inert && (e.Value == nil || inertWord(e.Value, false))
			}
		}
		if !inert {
			st.arith.taint(n.Name.Value)
		}
	case *syntax.WordIter:
		if !n.InPos.IsValid() {
			st.arith.taint(n.Name.Value) // for x; do: the positional parameters
		}
		for _, w := range n.Items {
			if !inertWord(w, true) {
				st.arith.taint(n.Name.Value)
			}
		}
	case *syntax.ParamExp:
		if k, _ := paramKey(n); k != "" {
			st.arith.taintKeys([]string{k})
		}
	}
}

// arithReads notes the variables arithmetic reads in a node, and refuses
// arithmetic that reads a value no name holds: $1, $(...), quoted text.
func arithReads(n syntax.Node, st *keyState) error {
	switch n := n.(type) {
	case *syntax.ArithmExp:
		return arithExpr(n.X, st)
	case *syntax.LetClause:
		return arithExprs(st, n.Exprs...)
	case *syntax.CStyleLoop:
		return arithExprs(st, n.Init, n.Cond, n.Post)
	case *syntax.Assign:
		return arithExprs(st, n.Index)
	case *syntax.ArrayElem:
		return arithExprs(st, n.Index)
	case *syntax.ParamExp:
		return paramReads(n, st)
	}
	return nil
}

// paramReads notes what an expansion reads as arithmetic: its subscript
// (but @ and *), its substring offset and length, and, for ${!x} and
// ${!x[i]}, x, whose value bash reads as a name with a subscript; ${!x[@]}
// lists x's subscripts.
func paramReads(p *syntax.ParamExp, st *keyState) error {
	w, ok := p.Index.(*syntax.Word)
	all := ok && allElems(w)
	if !all {
		if err := arithExprs(st, p.Index); err != nil {
			return err
		}
	}
	if p.Slice != nil {
		if err := arithExprs(st, p.Slice.Offset, p.Slice.Length); err != nil {
			return err
		}
	}
	if p.Excl && p.Names == 0 && !all {
		if p.Param == nil || !validName(p.Param.Value) {
			return errArithData
		}
		st.arith.use(p.Param.Value)
	}
	return nil
}

// allElems reports whether a subscript is @ or *, which read no value.
func allElems(w *syntax.Word) bool {
	s, ok := joinParts(w)
	return ok && (s == "@" || s == "*")
}

func arithExprs(st *keyState, xs ...syntax.ArithmExpr) error {
	for _, x := range xs {
		if x == nil {
			continue
		}
		if err := arithExpr(x, st); err != nil {
			return err
		}
	}
	return nil
}

// arithExpr notes the variables an arithmetic expression reads; nested
// expansions are visited by the walk on their own.
func arithExpr(x syntax.ArithmExpr, st *keyState) error {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		return arithExprs(st, x.X, x.Y)
	case *syntax.UnaryArithm:
		return arithExpr(x.X, st)
	case *syntax.ParenArithm:
		return arithExpr(x.X, st)
	case *syntax.Word:
		return arithWord(x, st)
	}
	return errArithData
}

// arithWord notes what one operand reads: a name, or an expansion of
// one. Bash reads the text an operand expands to as an expression, so
// an operand of several parts ("a$x") or of quoted text is refused
// unless it is inert.
func arithWord(w *syntax.Word, st *keyState) error {
	parts := w.Parts
	if len(parts) == 1 {
		if q, ok := parts[0].(*syntax.DblQuoted); ok && !q.Dollar {
			parts = q.Parts
		}
	}
	if len(parts) != 1 {
		if inertWord(&syntax.Word{Parts: parts}, false) {
			return nil
		}
		return errArithData
	}
	switch p := parts[0].(type) {
	case *syntax.Lit:
		return arithText(p.Value, st)
	case *syntax.SglQuoted:
		if p.Dollar {
			return errArithData
		}
		return arithText(p.Value, st)
	case *syntax.ArithmExp:
		return nil
	case *syntax.ParamExp:
		return arithParam(p, st)
	}
	return errArithData
}

func arithText(s string, st *keyState) error {
	switch {
	case validName(s):
		st.arith.use(s)
	case !inertText(s):
		return errArithData
	}
	return nil
}

// arithParam notes what an expansion inside arithmetic reads: the
// variable, and a default's word. Positional parameters, set by set --,
// a function's call or sh -c's operands, and string operations on a
// value are refused.
func arithParam(p *syntax.ParamExp, st *keyState) error {
	if numericParam(p) {
		return nil
	}
	if p.Excl || p.Param == nil || !validName(p.Param.Value) || p.Repl != nil || p.Slice != nil || p.Names != 0 || p.Width {
		return errArithData
	}
	st.arith.use(p.Param.Value)
	if p.Exp == nil {
		return nil
	}
	switch p.Exp.Op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull, syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if p.Exp.Word == nil {
			return nil
		}
		return arithWord(p.Exp.Word, st)
	}
	return errArithData
}

// testReads refuses test -v (and [ -v) on anything but a fixed name:
// bash evaluates the subscript of test -v 'a[$(rm x)]'. A computed
// argument may be -v, so the one after it must be fixed and without a
// subscript; an unquoted expansion may be several arguments, so it must
// be of a variable whose value arithmetic may read, and a glob or $(...)
// is refused.
func testReads(args []*syntax.Word, st *keyState) error {
	after := func(i int, ok func(string) bool) error {
		if i+1 >= len(args) {
			return nil
		}
		if s, fixed := literal(args[i+1]); !fixed || !ok(s) {
			return errArithData
		}
		return nil
	}
	for i, w := range args {
		if err := splitReads(w, st); err != nil {
			return err
		}
		s, fixed := literal(w)
		var err error
		switch {
		case fixed && s == "-v":
			err = after(i, validName)
		case !fixed:
			err = after(i, func(s string) bool { return !strings.Contains(s, "[") })
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// splitReads notes the variables of a word's unquoted expansions, which
// sh splits into arguments; other unquoted expansions and globs are
// refused.
func splitReads(w *syntax.Word, st *keyState) error {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") {
				return errArithData
			}
		case *syntax.ParamExp:
			if err := arithParam(p, st); err != nil {
				return err
			}
		case *syntax.SglQuoted, *syntax.DblQuoted, *syntax.ArithmExp:
		default:
			return errArithData
		}
	}
	return nil
}

// bashNumbers are variables bash gives a number itself, whatever the
// environment holds for them.
var bashNumbers = map[string]bool{
	"RANDOM": true, "SRANDOM": true, "SECONDS": true, "LINENO": true, "BASHPID": true, "PPID": true,
	"UID": true, "EUID": true, "EPOCHSECONDS": true, "HISTCMD": true, "SHLVL": true, "OPTIND": true,
	"BASH_SUBSHELL": true, "PIPESTATUS": true, "BASH_LINENO": true, "BASH_ARGC": true, "GROUPS": true,
}

// envKeys are the keys of the variables arithmetic reads that no key of
// the line sets (NAME=VALUE, NAME=*), so their value comes from the
// environment the line runs in, which bash evaluates as an expression
// (FOO='a[$(rm -rf x)]' makes echo $((FOO)) run rm): "$NAME=env", so
// approving a line that reads one variable does not approve reading
// another (a CI's commit message). A "$" begins no variable's name, and
// no command's name holds an "=".
func (a *arithState) envKeys(keys []string) []string {
	set := map[string]bool{}
	for _, k := range keys {
		if name, _, ok := strings.Cut(k, "="); ok {
			set[strings.TrimSuffix(name, "+")] = true
		}
	}
	var env []string
	for name := range a.read {
		if !set[name] && !bashNumbers[name] {
			env = append(env, "$"+name+"=env")
		}
	}
	return env
}
