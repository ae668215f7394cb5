package builtin

import "strings"

// keyState is what keying one line gathers beside its keys, over the
// line and every line nested in it (sh -c, eval, trap, alias): the words
// read, which maxKeyWork bounds, and what can only be judged once the
// whole line is read, as a command may run before or after another
// written before it (loops, functions, traps).
type keyState struct {
	work       int
	arith      arithState
	dirChanged bool
	// runPaths are the command names of calls keyed as themselves,
	// whose keys relativeKeys cannot read a path from.
	runPaths []string
	// calls: a call is keyed as itself (sed -f x.sed, awk -f x.awk,
	// python -c 'import x'), whose words may name files from the
	// current directory however they are written.
	calls bool
	// conns are the variables a database client's connection is read
	// from (psql "$DATABASE_URL"; clientWords).
	conns []string
}

// check refuses a line its keys would misdescribe: one where arithmetic
// reads a value the line does not fix, or a client's connection does,
// or one that changes directory and has a key naming a relative path
// or a call keyed as itself.
func (st *keyState) check(keys []string) error {
	if err := st.arith.check(); err != nil {
		return err
	}
	if err := st.connCheck(keys); err != nil {
		return err
	}
	if st.dirChanged && st.calls {
		return errRelativeAfterCd
	}
	if st.dirChanged {
		return relativeKeys(append(keys, st.runPaths...))
	}
	return nil
}

// assigns notes env's or sudo's NAME=VALUE word, which is the key of its
// assignment; a word whose NAME is no variable's would read as a key of
// another kind (env '. x=y' as sourcing x=y), so it is refused.
func (st *keyState) assigns(word string) error {
	if name, _, _ := strings.Cut(word, "="); !validName(name) {
		return errDynamic
	}
	st.arith.taintKeys([]string{word})
	return nil
}
