package builtin

import (
	"errors"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// errConnComputed: a client connects where a variable the line computes
// says, and a value beginning with "-" is an option to it, one that may
// run a shell line (psql -c'\! rm -rf x').
var errConnComputed = errors.New("a database client connects where a value computed on the line says")

// clientKey is the key of a database client's call given what it runs
// on the line: the call, its connection's variables written "$NAME"
// (clientWords); ok is false for no other reason than an error.
func clientKey(name, base string, args []*syntax.Word, r reach, st *keyState) (key string, ok bool, err error) {
	vars, err := clientInput(base, args, r)
	if err != nil {
		return "", false, err
	}
	for _, v := range vars {
		st.conns = append(st.conns, v)
	}
	key, err = callKeyWith(name, args, vars)
	return key, err == nil, err
}

// clientWords returns the text of each of a client's words, as joinAll
// does, but for those that are a quoted variable alone ("$NAME",
// "${NAME}"), which sh passes as one word whatever its value: their
// index and NAME are in vars, and their text a plain operand's, so that
// reading the options finds where they are. Their place decides: a
// connection's (clientInput).
func clientWords(args []*syntax.Word) (words []string, vars map[int]string, ok bool) {
	words = make([]string, len(args))
	for i, w := range args {
		if s, ok := joinParts(w); ok {
			words[i] = s
			continue
		}
		name, ok := quotedVar(w)
		if !ok {
			return nil, nil, false
		}
		if vars == nil {
			vars = map[int]string{}
		}
		words[i], vars[i] = "var", name
	}
	return words, vars, true
}

// quotedVar returns NAME for a word that is "$NAME" or "${NAME}" alone.
func quotedVar(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	q, ok := w.Parts[0].(*syntax.DblQuoted)
	if !ok || q.Dollar || len(q.Parts) != 1 {
		return "", false
	}
	p, ok := q.Parts[0].(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil {
		return "", false
	}
	return p.Param.Value, validName(p.Param.Value) && !lineFed[p.Param.Value]
}

// connCheck refuses a line that computes a variable a client connects
// by (NAME=*: U=$(cat f), read U, for U in): its value may be an option.
func (st *keyState) connCheck(keys []string) error {
	for _, name := range st.conns {
		if slices.Contains(keys, name+"=*") || slices.Contains(keys, name+"+=*") {
			return errConnComputed
		}
	}
	return nil
}

// connEnvKeys are "$NAME=env" for each variable a client connects by
// that no key of the line sets, as arithmetic's envKeys are: its value
// comes from the environment the line runs in.
func (st *keyState) connEnvKeys(keys []string) []string {
	var env []string
	for _, name := range st.conns {
		set := slices.ContainsFunc(keys, func(k string) bool {
			return strings.HasPrefix(k, name+"=") || strings.HasPrefix(k, name+"+=")
		})
		if !set {
			env = append(env, "$"+name+"=env")
		}
	}
	return env
}
