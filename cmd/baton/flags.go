package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/batonrt/baton/store"
	// Registers postgres:// with store.Open, for --store URLs.
	_ "github.com/batonrt/baton/store/postgres"
)

// usageError is a bad command line: exit code 2.
type usageError struct {
	fs  *flag.FlagSet
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usagef(fs *flag.FlagSet, format string, args ...any) error {
	return &usageError{fs: fs, msg: fmt.Sprintf(format, args...)}
}

// flagSet is a subcommand's flags, with the --store flag every
// subcommand shares and the --json flag most do.
type flagSet struct {
	*flag.FlagSet
	store string
	json  bool
	// noJSON, for a command without --json, says why it has none, so
	// that --json is refused saying so rather than as an unknown flag.
	noJSON string
	help   io.Writer
	app    *app
}

// newFlags makes the flags of a subcommand that prints JSON for scripts
// with --json.
func (a *app) newFlags(name, argsHelp, summary string) *flagSet {
	fs := a.newFlagsNoJSON(name, argsHelp, summary, "")
	fs.BoolVar(&fs.json, "json", false, "print JSON for scripts instead of text")
	return fs
}

// newFlagsNoJSON makes the flags of a subcommand whose output --json
// would not change; why says so when --json is given.
func (a *app) newFlagsNoJSON(name, argsHelp, summary, why string) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), noJSON: why, help: a.stdout, app: a}
	fs.SetOutput(io.Discard)
	fs.StringVar(&fs.store, "store", "", "store folder or postgres:// URL (default $BATON_HOME/store or ~/.baton/store)")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: baton %s [flags] %s\n\n%s\n\nFlags:\n", name, argsHelp, summary)
		fs.PrintDefaults()
	}
	return fs
}

// parse reads flags anywhere among the positional arguments, which the
// flag package alone would stop at, and checks the positional count.
func (fs *flagSet) parse(args []string, minPos, maxPos int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(fs.help)
				fs.Usage()
				return nil, err
			}
			if fs.noJSON != "" && err.Error() == "flag provided but not defined: -json" {
				return nil, usagef(fs.FlagSet, "%s: --json is not a flag of %s: %s", fs.Name(), fs.Name(), fs.noJSON)
			}
			return nil, &usageError{fs: fs.FlagSet, msg: err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	switch {
	case len(pos) < minPos:
		return nil, usagef(fs.FlagSet, "%s: missing argument", fs.Name())
	case maxPos >= 0 && len(pos) > maxPos:
		return nil, usagef(fs.FlagSet, "%s: unexpected argument %q", fs.Name(), pos[maxPos])
	}
	if fs.json {
		// All a --json command prints to stdout from here on is JSON.
		fs.app.stdout = jsonSafe(fs.app.stdout)
	}
	return pos, nil
}

// storeDir resolves the store folder.
func (fs *flagSet) storeDir() (string, error) {
	if fs.store != "" {
		return fs.store, nil
	}
	if h := os.Getenv("BATON_HOME"); h != "" {
		return filepath.Join(h, "store"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no store folder: set --store or $BATON_HOME (%w)", err)
	}
	return filepath.Join(home, ".baton", "store"), nil
}

// storeArg is the --store flag to repeat in a command printed for the
// user, so the command looks where this one did. A database URL's
// password is masked, as what a terminal shows ends up in scrollback and
// pasted logs: the user puts it back, or leaves it out of the URL and
// sets PGPASSWORD.
func (fs *flagSet) storeArg() string {
	if fs.store == "" {
		return ""
	}
	return " --store " + shellArg(storeName(fs.store))
}

// openStore opens the store the flags name.
func (fs *flagSet) openStore() (store.Store, string, error) {
	dir, err := fs.storeDir()
	if err != nil {
		return nil, "", err
	}
	if err := notAFolder(dir); err != nil {
		return nil, dir, err
	}
	st, err := store.Open(dir)
	if err != nil {
		return nil, dir, fmt.Errorf("open store %s: %w", storeName(dir), err)
	}
	return st, dir, nil
}

// notAFolder names a --store that is a file, which the store would
// report as a failed mkdir, a step the user never asked for.
func notAFolder(dir string) error {
	if isURL(dir) {
		return nil
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("store %s is not a folder", dir)
	}
	return nil
}

// isURL reports whether --store names a database rather than a folder.
func isURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// storeName is dir as an error may show it: a database URL's password,
// in its user part or its query, is masked, as an error ends up in logs
// that others read.
func storeName(dir string) string {
	if !isURL(dir) {
		return dir
	}
	return redactURL(dir)
}

// redactURL is a URL with the password of its user part and of a
// password parameter masked.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		// A database takes URLs Go cannot parse (a password with a #
		// or a / in it): all before the last @ is masked.
		scheme, rest, _ := strings.Cut(s, "://")
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			rest = "xxxxx" + rest[i:]
		}
		return scheme + "://" + passwordParam.ReplaceAllString(rest, "${1}xxxxx")
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// passwordParam is a database URL's password parameter.
var passwordParam = regexp.MustCompile(`([?&]password=)[^&]*`)

// errNoStore is the error of a read-only command whose store folder does
// not exist.
var errNoStore = errors.New("no store at")

// openExistingStore opens the store the flags name for a command that only
// reads it (or, like fork, adds to what is there): a folder that does not
// exist is an error, not an empty store to create, so a mistyped --store
// leaves nothing behind.
func (fs *flagSet) openExistingStore() (store.Store, string, error) {
	dir, err := fs.storeDir()
	if err != nil {
		return nil, "", err
	}
	if isURL(dir) {
		return fs.openStore()
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil, dir, fmt.Errorf("%w %s", errNoStore, dir)
	}
	return fs.openStore()
}

// sessionErr turns the store's not-found into a message naming the session.
func sessionErr(id string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("unknown session %q (see 'baton sessions')", id)
	}
	if errors.Is(err, store.ErrCorrupt) || errors.Is(err, store.ErrMissingParent) || errors.Is(err, store.ErrBrokenRef) {
		return fmt.Errorf("session %q: the store is damaged: %w", id, err)
	}
	return fmt.Errorf("session %q: %w", id, err)
}

// head returns a session's head, with the error named for the user.
func head(ctx context.Context, st store.Store, id string) (store.Hash, error) {
	h, err := st.Head(ctx, id)
	if err != nil {
		return h, sessionErr(id, err)
	}
	return h, nil
}

// shortHash is the prefix printed for a node.
func shortHash(h store.Hash) string { return h.String()[:12] }

// oneLine folds s onto one line of at most max runes, its control
// characters escaped for the terminal.
func oneLine(s string, max int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > max {
		return safeLine(string(r[:max-1])) + "…"
	}
	return safeLine(string(r))
}
