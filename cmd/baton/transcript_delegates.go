package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// delegateView is what a transcript shows of a session's delegated runs.
type delegateView struct {
	runs []delegateRun
	// storeArg is the --store flag, if any, for the command it suggests.
	storeArg string
	// inline, when set, writes a child's transcript in place of the
	// command to read it.
	inline func(w io.Writer, r delegateRun) error
}

// delegates prints, under the step that answered them (0: at the end, for
// calls still running), the delegated runs' sessions: each child's id
// and the command that prints it, or with --children its transcript,
// indented.
func (t *transcript) delegates(step uint64) {
	for _, r := range t.view.runs {
		if r.step != step {
			continue
		}
		verb := "ran"
		if step == 0 {
			verb = "running"
		}
		ref := t.callRef(r.callID)
		if r.callID == "" {
			ref = "a delegate call"
		}
		if t.view.inline == nil {
			fmt.Fprintf(t.w, "⇢ %s %s as session %s  (baton log%s %s)\n", ref, verb, safeLine(r.session), t.view.storeArg, shellArg(r.session))
			continue
		}
		fmt.Fprintf(t.w, "⇢ %s %s as session %s:\n", ref, verb, safeLine(r.session))
		var child bytes.Buffer
		if err := t.view.inline(&child, r); err != nil {
			fmt.Fprintf(&child, "!! cannot be read: %s\n", safeLine(err.Error()))
		}
		for _, line := range strings.SplitAfter(child.String(), "\n") {
			if line != "" {
				fmt.Fprint(t.w, "  "+line)
			}
		}
	}
}
