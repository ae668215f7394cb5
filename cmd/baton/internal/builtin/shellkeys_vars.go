package builtin

import (
	"errors"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// errNameref: after declare -n r=PATH, what r=x sets is PATH.
var errNameref = errors.New("a nameref's assignments set another variable")

// errLoads: hash -p and enable -f make a command name run a file the
// line chooses.
var errLoads = errors.New("the line points a command name at a file")

// varKey is the key of a variable set to a value only known when the
// line runs.
func varKey(name string) string { return name + "=*" }

// declKeys are the keys of declare, export, local, readonly and typeset
// beyond the assignments the walk keys: a quoted "NAME=VALUE" argument
// sets NAME as an assignment does, and -l, -u, -c and -i change the
// value later assignments give, so those variables may end up with any
// value. A nameref makes later assignments set another variable.
func declKeys(d *syntax.DeclClause, st *keyState) ([]string, error) {
	keys := []string{d.Variant.Value}
	if d.Variant.Value == "nameref" {
		return nil, errNameref
	}
	transforms, integer := false, false
	var named []string
	for _, a := range d.Args {
		if !a.Naked {
			named = append(named, a.Name.Value)
			continue
		}
		if a.Name != nil {
			named = append(named, a.Name.Value)
			continue
		}
		s, ok := joinParts(a.Value)
		switch {
		case !ok:
			return nil, errDynamic
		case strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+"):
			if d.Variant.Value != "export" && strings.Contains(s[1:], "n") {
				return nil, errNameref
			}
			transforms = transforms || strings.ContainsAny(s[1:], "ilcu")
			integer = integer || (s[0] == '-' && strings.Contains(s[1:], "i"))
		case strings.Contains(s, "="):
			name, value, _ := strings.Cut(s, "=")
			op := "="
			if n, ok := strings.CutSuffix(name, "+"); ok {
				name, op = n, "+="
			}
			if !validName(name) {
				return nil, errDynamic
			}
			if _, fixed := literal(a.Value); !fixed {
				value = "*"
			}
			keys = append(keys, name+op+value)
			st.arith.taintKeys(keys[len(keys)-1:])
			named = append(named, name)
		case validName(s):
			named = append(named, s)
		default:
			return nil, errDynamic
		}
	}
	for _, name := range named {
		if transforms {
			keys = append(keys, varKey(name))
		}
		if integer {
			st.arith.use(name) // bash evaluates each value given to it
		}
	}
	return keys, nil
}

// paramKey is the key of ${NAME=VALUE} and ${NAME:=VALUE}, which set
// NAME when it is unset (or empty); "" for other expansions.
func paramKey(p *syntax.ParamExp) (string, error) {
	if p.Exp == nil || (p.Exp.Op != syntax.AssignUnset && p.Exp.Op != syntax.AssignUnsetOrNull) {
		return "", nil
	}
	if p.Excl || p.Param == nil {
		return "", errDynamic // ${!n:=x} sets the variable n names
	}
	if p.Index != nil || p.Exp.Word == nil {
		if p.Exp.Word == nil && p.Index == nil {
			return p.Param.Value + "=", nil
		}
		return varKey(p.Param.Value), nil
	}
	value, ok := literal(p.Exp.Word)
	if !ok {
		value = "*"
	}
	return p.Param.Value + "=" + value, nil
}

var arithmAssigns = []syntax.BinAritOperator{
	syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
	syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn,
}

// arithmKey is the key of an arithmetic assignment, $((PATH=1)) or
// i++; "" for other operations.
func arithmKey(n syntax.Node) (string, error) {
	var x syntax.ArithmExpr
	switch n := n.(type) {
	case *syntax.BinaryArithm:
		if !slices.Contains(arithmAssigns, n.Op) {
			return "", nil
		}
		x = n.X
	case *syntax.UnaryArithm:
		if n.Op != syntax.Inc && n.Op != syntax.Dec {
			return "", nil
		}
		x = n.X
	default:
		return "", nil
	}
	if w, ok := x.(*syntax.Word); ok {
		if name, ok := literal(w); ok && validName(name) {
			return varKey(name), nil
		}
	}
	return "", errDynamic
}

// fdVarKey is the key of bash's {NAME}>file, which sets NAME to the
// descriptor it opens; "" for a plain descriptor number.
func fdVarKey(r *syntax.Redirect) (string, error) {
	if r.N == nil || !strings.HasPrefix(r.N.Value, "{") {
		return "", nil
	}
	name := strings.TrimSuffix(strings.TrimPrefix(r.N.Value, "{"), "}")
	if !validName(name) {
		return "", errDynamic
	}
	return varKey(name), nil
}

// setterKeys are the keys of the builtins that set variables without an
// assignment word (read PATH, printf -v PATH, ...), NAME=* for each, and
// refuse those that point a command name at a file.
func setterKeys(base string, args []*syntax.Word) ([]string, error) {
	switch base {
	case "read":
		return setNames(args, "adinNptu", "a", "REPLY")
	case "mapfile", "readarray":
		opts, _, err := options(args, "dnOsuCc")
		if err == nil && opts['C'] {
			return nil, errDynamic // -C names a command line to run
		}
		return setNames(args, "dnOsuCc", "", "MAPFILE")
	case "getopts":
		_, operands, err := options(args, "")
		if err != nil || len(operands) < 2 {
			return nil, err
		}
		keys, err := names(operands[1:2])
		return append(keys, "OPTARG=*", "OPTIND=*"), err
	case "printf":
		keys, err := setNames(args, "v", "v", "")
		if len(keys) > 0 || err != nil {
			return keys, err
		}
		return nil, nil
	case "wait":
		keys, err := setNames(args, "p", "p", "")
		if err != nil {
			return nil, err
		}
		return keys, nil
	case "unset":
		return setNames(args, "", "", "")
	case "set":
		return positionalKey(args), nil
	case "hash", "enable":
		opts, _, err := options(args, "dpt")
		if err != nil || opts['p'] || opts['f'] {
			return nil, errors.Join(errLoads, err)
		}
	}
	return nil, nil
}

// positionalKey is "@=*" when set sets the positional parameters: it has
// operands, after options, "-" or "--" (set -- a b, set -e a); an option
// word with o takes the next word (set -o errexit). A computed word may
// be an operand.
func positionalKey(args []*syntax.Word) []string {
	for i := 0; i < len(args); i++ {
		s, ok := joinParts(args[i])
		switch {
		case !ok:
			return []string{"@=*"}
		case s == "--" || s == "-":
			if i+1 < len(args) {
				return []string{"@=*"}
			}
			return nil
		case len(s) > 1 && (s[0] == '-' || s[0] == '+'):
			i += strings.Count(s, "o")
		default:
			return []string{"@=*"}
		}
	}
	return nil
}

// setNames keys the variables a builtin sets: the values of its options
// in nameOpts, its operands unless only options name variables (printf
// and wait, whose operands are not names: nameOpts is all of values),
// or fallback when it sets no named one.
func setNames(args []*syntax.Word, values, nameOpts, fallback string) ([]string, error) {
	_, operands, err := options(args, values)
	if err != nil {
		return nil, err
	}
	var named []*syntax.Word
	for i := 0; i < len(args)-len(operands); i++ {
		s, _ := joinParts(args[i])
		if s == "--" {
			break
		}
		for j := 1; j < len(s); j++ {
			if !strings.ContainsRune(values, rune(s[j])) {
				continue
			}
			if strings.ContainsRune(nameOpts, rune(s[j])) {
				switch {
				case j+1 < len(s):
					named = append(named, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s[j+1:]}}})
				case i+1 < len(args):
					named = append(named, args[i+1])
				}
			}
			if j+1 == len(s) {
				i++
			}
			break
		}
	}
	if nameOpts == "" || nameOpts != values {
		named = append(named, operands...)
	}
	keys, err := names(named)
	if len(keys) == 0 && fallback != "" {
		keys = []string{varKey(fallback)}
	}
	return keys, err
}

// names keys the variables named by words, refusing a computed name or
// an array element (bash runs a command in read 'a[$(rm x)]').
func names(words []*syntax.Word) ([]string, error) {
	var keys []string
	for _, w := range words {
		name, ok := literal(w)
		if !ok || !validName(name) {
			return nil, errDynamic
		}
		keys = append(keys, varKey(name))
	}
	return keys, nil
}

// options reads a builtin's arguments as getopt does: options, each
// letter in values taking the rest of its word or the next word, until
// "--" or the first word not an option; it returns the option letters
// seen and the operands. A computed word where an option may be is
// refused: it may be one.
func options(args []*syntax.Word, values string) (map[byte]bool, []*syntax.Word, error) {
	seen := map[byte]bool{}
	for i := 0; i < len(args); i++ {
		s, ok := joinParts(args[i])
		switch {
		case !ok && numeric(args[i]):
			return seen, args[i:], nil
		case !ok:
			return nil, nil, errDynamic
		case s == "--":
			return seen, args[i+1:], nil
		case len(s) < 2 || s[0] != '-':
			return seen, args[i:], nil
		}
		for j := 1; j < len(s); j++ {
			seen[s[j]] = true
			if strings.ContainsRune(values, rune(s[j])) {
				if j+1 == len(s) {
					if i+1 == len(args) {
						return seen, nil, nil
					}
					i++
				}
				break
			}
		}
	}
	return seen, nil, nil
}

// numeric reports whether w is $!, $$, $? or $#, which hold a number and
// so are no option (wait $!).
func numeric(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	p, ok := w.Parts[0].(*syntax.ParamExp)
	return ok && p.Short && p.Exp == nil && p.Index == nil && !p.Excl && !p.Length && strings.Contains("!$?#", p.Param.Value)
}
