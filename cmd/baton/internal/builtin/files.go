package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

type readArgs struct {
	Path string `json:"path" jsonschema:"file path relative to the workspace"`
}

type writeArgs struct {
	Path    string `json:"path" jsonschema:"file path relative to the workspace; parent folders are created"`
	Content string `json:"content" jsonschema:"the whole new content of the file"`
}

type listArgs struct {
	Path string `json:"path,omitempty" jsonschema:"folder relative to the workspace; empty for the workspace itself"`
}

// clean checks a model-supplied path before os.Root sees it, so the model
// gets a plain reason; os.Root is still what enforces the confinement,
// including through symlinks.
func clean(p string) (string, error) {
	if p == "" {
		return ".", nil
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return "", fmt.Errorf("%w: %q is absolute; use a path relative to the workspace", ErrEscape, p)
	}
	c := path.Clean(filepath.ToSlash(p))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%w: %q climbs out of it", ErrEscape, p)
	}
	return c, nil
}

// at resolves a model-supplied path against the session's working
// directory (dispatch.WorkDir) when that lies inside the workspace, else
// against the workspace itself; os.Root confines the result either way.
func (s *Set) at(ctx context.Context, p string) (string, error) {
	c, err := clean(p)
	if err != nil {
		return "", err
	}
	if sub := s.subdir(ctx); sub != "" {
		return path.Join(sub, c), nil
	}
	return c, nil
}

// subdir is the session's working directory relative to the workspace,
// with slashes, or "" when it is the workspace, outside it, or unset.
func (s *Set) subdir(ctx context.Context) string {
	wd := dispatch.WorkDir(ctx)
	if wd == "" {
		return ""
	}
	rel, err := filepath.Rel(s.opts.Root, wd)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// rootErr names an os.Root refusal as an escape.
func rootErr(op, p string, err error) error {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return fmt.Errorf("%w: %s %q: %v", ErrEscape, op, p, err)
	}
	return fmt.Errorf("%s %q: %w", op, p, err)
}

func (s *Set) readFile() (dispatch.Tool, error) {
	return dispatch.Func("read_file", "Read a text file of the workspace.", func(ctx context.Context, a readArgs) (contract.ToolOutcome, error) {
		text, cut, err := s.read(ctx, a.Path)
		return contract.ToolOutcome{Content: text, Truncated: cut}, err
	}, dispatch.Idempotent())
}

// read is the start of the regular file p, at most MaxRead bytes and a
// note when it had more, and whether it had more.
func (s *Set) read(ctx context.Context, name string) (string, bool, error) {
	p, err := s.at(ctx, name)
	if err != nil {
		return "", false, err
	}
	// Non-blocking, so that opening a FIFO does not wait for a writer;
	// only regular files are read.
	f, err := s.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", false, rootErr("read", name, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return "", false, rootErr("read", name, err)
	} else if !fi.Mode().IsRegular() {
		return "", false, fmt.Errorf("read %q: not a regular file (%s)", name, fi.Mode().Type())
	}
	b, err := io.ReadAll(io.LimitReader(f, s.opts.MaxRead+1))
	if err != nil {
		return "", false, rootErr("read", name, err)
	}
	if int64(len(b)) > s.opts.MaxRead {
		keep := runeCut(b, int(s.opts.MaxRead))
		return string(b[:keep]) + fmt.Sprintf("\n[truncated at %d bytes]", keep), true, nil
	}
	return string(b), false, nil
}

func (s *Set) writeFile() (dispatch.Tool, error) {
	return dispatch.Func("write_file", "Write a file of the workspace, replacing it if it exists.", func(ctx context.Context, a writeArgs) (string, error) {
		p, err := s.at(ctx, a.Path)
		if err != nil {
			return "", err
		}
		if p == "." {
			return "", errors.New("write: a file path is required")
		}
		if dir := path.Dir(p); dir != "." {
			if err := s.root.MkdirAll(dir, 0o755); err != nil {
				return "", rootErr("mkdir", dir, err)
			}
		}
		if err := s.writeRegular(p, []byte(a.Content)); err != nil {
			return "", rootErr("write", a.Path, err)
		}
		return fmt.Sprintf("wrote %d bytes to %s", len(a.Content), p), nil
	}, dispatch.Idempotent())
}

// writeRegular writes b to the file p, as os.Root.WriteFile does, but
// only to a regular file: opened non-blocking, a FIFO without a reader
// is refused at once rather than waited on.
func (s *Set) writeRegular(p string, b []byte) error {
	f, err := s.root.OpenFile(p, os.O_WRONLY|os.O_CREATE|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	default:
		err = f.Truncate(0)
		if err == nil {
			_, err = f.Write(b)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *Set) listFiles() (dispatch.Tool, error) {
	return dispatch.Func("list_files", "List a folder of the workspace; folders end with a slash.", func(ctx context.Context, a listArgs) (string, error) {
		p, err := s.at(ctx, a.Path)
		if err != nil {
			return "", err
		}
		// Non-blocking, as read_file: a FIFO waits for a writer.
		f, err := s.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return "", rootErr("list", a.Path, err)
		}
		defer f.Close()
		entries, err := f.ReadDir(-1)
		if err != nil {
			return "", rootErr("list", a.Path, err)
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() {
				name += "/"
			}
			names = append(names, name)
		}
		slices.Sort(names)
		if len(names) == 0 {
			return "(empty)", nil
		}
		return strings.Join(names, "\n"), nil
	}, dispatch.Idempotent())
}
