package scripted_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

func usage(in, out, cached int64) contract.Usage {
	return contract.Usage{InputTokens: in, OutputTokens: out, CachedTokens: cached}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func utf8Valid(s string) bool { return utf8.ValidString(s) }
