package wire

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
)

// User is one of the people a handler serves (HandlerOptions.Users): the
// name the handler keeps the user's threads under, and the bearer token
// the user's requests carry.
type User struct {
	// Name may not be empty or hold a slash: a thread's key is the name,
	// a slash and the thread's id.
	Name  string
	Token string
}

// userHeader names, on a request one handler hands another, the user the
// sender took its token for; the receiver serves it only if it takes the
// token for the same user.
const userHeader = "Baton-User"

// account is a user as the handler checks tokens against: the token's
// digest, so that every comparison is of the same length.
type account struct {
	name   string
	digest [sha256.Size]byte
}

// accounts checks opts' users and returns them; a bad list is a
// programming error, and panics.
func accounts(opts HandlerOptions) []account {
	if len(opts.Users) > 0 && opts.Token != "" {
		panic("wire: HandlerOptions with both Token and Users")
	}
	out := make([]account, 0, len(opts.Users))
	names, tokens := map[string]bool{}, map[string]bool{}
	for _, u := range opts.Users {
		switch {
		case u.Name == "" || strings.Contains(u.Name, "/") || !utf8.ValidString(u.Name) || strings.ContainsFunc(u.Name, unicode.IsControl):
			// The name goes in a header (userHeader) and in session ids.
			panic(fmt.Sprintf("wire: user name %q is empty or holds a slash or a control character", u.Name))
		case u.Token == "":
			panic(fmt.Sprintf("wire: user %q has no token", u.Name))
		case names[u.Name]:
			panic(fmt.Sprintf("wire: user %q is named twice", u.Name))
		case tokens[u.Token]:
			panic(fmt.Sprintf("wire: user %q has another user's token", u.Name))
		}
		names[u.Name], tokens[u.Token] = true, true
		out = append(out, account{name: u.Name, digest: sha256.Sum256([]byte(u.Token))})
	}
	return out
}

// tokened reports whether requests must carry a token.
func (h *Handler) tokened() bool { return h.opts.Token != "" || len(h.users) > 0 }

// authenticate returns the user whose token r carries ("" for Token's
// holder). Every user's token is compared, in constant time, whichever
// matches: the time taken tells nothing of which one did, nor how near a
// guess came.
func (h *Handler) authenticate(r *http.Request) (string, bool) {
	scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	// The scheme is case-insensitive.
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	digest := sha256.Sum256([]byte(got))
	if len(h.users) == 0 {
		// Digests of equal length, so that the time taken does not tell
		// the token's length either, as comparing the tokens would.
		want := sha256.Sum256([]byte(h.opts.Token))
		return "", subtle.ConstantTimeCompare(digest[:], want[:]) == 1
	}
	found := -1
	for i, a := range h.users {
		found = subtle.ConstantTimeSelect(subtle.ConstantTimeCompare(digest[:], a.digest[:]), i, found)
	}
	if found < 0 {
		return "", false
	}
	return h.users[found].name, true
}

func (h *Handler) isUser(name string) bool {
	for _, a := range h.users {
		if a.name == name {
			return true
		}
	}
	return false
}

// userKey holds, in a request's context, the user its token is of.
type userKey struct{}

func withUser(r *http.Request, user string) *http.Request {
	if user == "" {
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), userKey{}, user))
}

// userOf is the user of r, "" when the handler has no Users.
func userOf(r *http.Request) string {
	user, _ := r.Context().Value(userKey{}).(string)
	return user
}

// threadName is a thread as its client names it (id) and as the handler
// keys it (key): the id itself, or with Users the user's name, a slash
// and the id, so that each user's threads are theirs alone and a user
// who names another's thread gets a thread of their own.
type threadName struct{ key, id, user string }

// threadName checks a request's thread id and names its thread. The
// key, which names the thread's session, is bounded by MaxThreadID.
func (h *Handler) threadName(r *http.Request, id string) (threadName, error) {
	if err := h.checkThreadID(id); err != nil {
		return threadName{}, err
	}
	user := userOf(r)
	if user == "" {
		return threadName{key: id, id: id}, nil
	}
	if most := h.opts.MaxThreadID - len(user) - 1; len(id) > most {
		return threadName{}, fmt.Errorf("wire: thread id is %d bytes, at most %d", len(id), most)
	}
	return threadName{key: user + "/" + id, id: id, user: user}, nil
}
