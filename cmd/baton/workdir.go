package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// sessionDir returns the session's working directory: workdir, which
// must be a folder inside the workspace, or the workspace itself.
func sessionDir(workspace, workdir string) (string, error) {
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return "", err
	}
	if workdir == "" {
		return ws, nil
	}
	wd, err := filepath.Abs(workdir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(ws, wd)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("--workdir %s is not inside the workspace %s", workdir, workspace)
	}
	if fi, err := os.Stat(wd); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("--workdir %s is not a folder", workdir)
	}
	return wd, nil
}
