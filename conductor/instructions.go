package conductor

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/zeebo/blake3"

	"github.com/batonrt/baton/contract"
)

// MaxInstructionBytes caps one instruction file; a longer one is cut, on
// a character boundary, with a note saying so.
const MaxInstructionBytes = 64 << 10

// FindInstructions collects the project instruction files named names
// (AGENTS.md, say) in dir and in each folder above it up to the
// repository root, the nearest folder holding .git. Outside a repository
// only dir itself is searched. Files come outermost first, so the ones
// nearest dir, read last, can refine the ones above; each is named by its
// path relative to the repository root (or dir) and carries the blake3
// hash of its bytes, so b3sum on the file checks it. A file that cannot be read is an error; one that is absent is
// not.
func FindInstructions(dir string, names []string) ([]contract.Instruction, error) {
	if len(names) == 0 {
		return nil, nil
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("conductor: instructions: %w", err)
	}
	dirs := repoDirs(dir)
	top := dirs[len(dirs)-1]
	var out []contract.Instruction
	for i := len(dirs) - 1; i >= 0; i-- {
		for _, name := range names {
			in, ok, err := readInstruction(top, filepath.Join(dirs[i], name))
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, in)
			}
		}
	}
	return out, nil
}

// repoDirs lists dir and its parents up to the repository root, nearest
// first; just dir when no parent holds .git.
func repoDirs(dir string) []string {
	dirs := []string{dir}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return dirs
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dirs[:1]
		}
		d = parent
		dirs = append(dirs, d)
	}
}

func readInstruction(top, path string) (contract.Instruction, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return contract.Instruction{}, false, nil
	}
	if err != nil {
		return contract.Instruction{}, false, fmt.Errorf("conductor: instructions: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return contract.Instruction{}, false, nil
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxInstructionBytes+1))
	if err != nil {
		return contract.Instruction{}, false, fmt.Errorf("conductor: instructions: read %s: %w", path, err)
	}
	sum := blake3.Sum256(b[:min(len(b), MaxInstructionBytes)])
	text := string(b)
	if len(b) > MaxInstructionBytes {
		cut := MaxInstructionBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + fmt.Sprintf("\n[cut: the file is longer than %d bytes]", MaxInstructionBytes)
	}
	text = validText(text)
	name, err := filepath.Rel(top, path)
	if err != nil {
		name = path
	}
	return contract.Instruction{Name: filepath.ToSlash(name), Hash: hex.EncodeToString(sum[:]), Text: strings.TrimRight(text, "\n")}, true, nil
}

// instructions collects this run's project instructions from the
// session's working directory.
func (a *Agent) instructions() ([]contract.Instruction, error) {
	if len(a.deps.Env.Instructions) == 0 {
		return nil, nil
	}
	dir := a.deps.Env.WorkDir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("conductor: instructions: %w", err)
		}
	}
	return FindInstructions(dir, a.deps.Env.Instructions)
}
