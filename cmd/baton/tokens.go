package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/batonrt/baton/wire"
)

// Bounds on a tokens file's users: a token short enough to guess is
// refused, and a name must leave room in a session id for the thread ids
// the chat page makes ("page-" and a UUID).
const (
	minTokenLen  = 16
	maxUserName  = 32
	pageThreadID = len("page-") + 36
)

// readTokens reads serve's users from a tokens file: one user a line,
// "NAME TOKEN" or "NAME:TOKEN" (a token may hold colons), blank lines and
// lines beginning with # left out. It refuses a malformed line, a name or
// a token given twice and a token under 16 bytes, naming the line and
// never the token.
func readTokens(path string) ([]wire.User, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("serve: --tokens: %w", err)
	}
	defer f.Close()
	users, err := parseTokens(f)
	if err != nil {
		return nil, fmt.Errorf("serve: --tokens %s: %w", path, err)
	}
	return users, nil
}

func parseTokens(r io.Reader) ([]wire.User, error) {
	var users []wire.User
	nameLine, tokenLine := map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		u, err := parseTokenLine(line)
		switch {
		case err != nil:
			return nil, fmt.Errorf("line %d: %w", n, err)
		case nameLine[u.Name] > 0:
			return nil, fmt.Errorf("line %d: user %q is named on line %d too", n, u.Name, nameLine[u.Name])
		case tokenLine[u.Token] > 0:
			return nil, fmt.Errorf("line %d: user %q has the token of line %d", n, u.Name, tokenLine[u.Token])
		}
		nameLine[u.Name], tokenLine[u.Token] = n, n
		users = append(users, u)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(users) == 0 {
		return nil, fmt.Errorf("names no users")
	}
	return users, nil
}

// parseTokenLine reads one user's line.
func parseTokenLine(line string) (wire.User, error) {
	var name, token string
	switch fields := strings.Fields(line); len(fields) {
	case 1:
		name, token, _ = strings.Cut(line, ":")
	case 2:
		name, token = fields[0], fields[1]
	}
	switch {
	case name == "" || token == "":
		return wire.User{}, fmt.Errorf("want NAME TOKEN or NAME:TOKEN")
	case len(name) > maxUserName || strings.ContainsFunc(name, func(r rune) bool { return !nameChar(r) }):
		return wire.User{}, fmt.Errorf("user name %q: letters, digits, '.', '_' and '-' only, at most %d bytes", name, maxUserName)
	case len(token) < minTokenLen:
		return wire.User{}, fmt.Errorf("user %q: the token is %d bytes, at least %d", name, len(token), minTokenLen)
	case strings.ContainsFunc(token, func(r rune) bool { return r <= ' ' || r > '~' }):
		return wire.User{}, fmt.Errorf("user %q: the token holds a character other than printable ASCII", name)
	}
	return wire.User{Name: name, Token: token}, nil
}

func nameChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
}

// readableByOthers reports whether users other than the file's owner may
// read the file.
func readableByOthers(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().Perm()&0o044 != 0
}
