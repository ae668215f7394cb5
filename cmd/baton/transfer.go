package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func (a *app) export(ctx context.Context, args []string) error {
	fs := a.newFlagsNoJSON("export", "[SESSION...]", "Write sessions (all when none are named, each named one with its delegates'\nsessions) as JSONL, every node with its hash.", "it writes JSONL already")
	out := fs.String("o", "-", "output file, - for stdout")
	ids, err := fs.parse(args, 0, -1)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(*out); err == nil && fi.IsDir() {
		return fmt.Errorf("export: -o %s is a folder: name a file", *out)
	}
	st, _, err := fs.openExistingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	src, err := exportSource(ctx, st, ids)
	if err != nil {
		return err
	}
	if src != st {
		defer src.Close()
	}
	if *out == "-" {
		return src.Export(ctx, a.stdout, ids...)
	}
	return writeAtomic(*out, func(w io.Writer) error { return src.Export(ctx, w, ids...) })
}

// writeAtomic writes path through a temporary file in the same folder,
// renamed over path only when write and the flush succeed, so a failure
// midway leaves no partial file and keeps what was at path before.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		// The temporary file's name means nothing to the user: the
		// error names the file asked for.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("export: write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	// CreateTemp makes the file 0600; an export is an ordinary file.
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

func (a *app) importSessions(ctx context.Context, args []string) error {
	fs := a.newFlags("import", "[FILE]", "Read sessions that 'baton export' wrote (from FILE, or stdin), verifying\nevery node, and print the sessions imported.")
	pos, err := fs.parse(args, 0, 1)
	if err != nil {
		return err
	}
	// stdin may be a terminal nobody types at: Ctrl-C must reach it.
	var r io.Reader = ctxReader{ctx: ctx, r: a.stdin}
	if len(pos) == 1 && pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return fmt.Errorf("import: %s is a folder: name a file baton export wrote", pos[0])
		}
		r = f
	}
	// Nothing at all is no export, rather than a corrupt one: a pipe
	// whose export failed, say. Looked at before the store is opened,
	// so that it creates no store folder.
	br := bufio.NewReader(r)
	if _, err := br.Peek(1); errors.Is(err, io.EOF) {
		return errors.New("import: the input is empty: want what 'baton export' wrote")
	}
	st, _, err := fs.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	ids, err := st.Import(ctx, br)
	if err != nil {
		return err
	}
	if ids == nil {
		ids = []string{} // a list in JSON, never null
	}
	if fs.json {
		return json.NewEncoder(a.stdout).Encode(map[string]any{"imported": ids})
	}
	if len(ids) == 0 {
		fmt.Fprintln(a.stdout, "no sessions imported: the input holds none")
		return nil
	}
	// The ids come from the file, which may have been crafted.
	for _, id := range ids {
		fmt.Fprintf(a.stdout, "imported %s\n", safeLine(id))
	}
	return nil
}
