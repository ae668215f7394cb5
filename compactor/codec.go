package compactor

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// A codec takes a noticeable time to load its vocabulary, so each encoding
// is loaded once and shared. Count on a loaded codec only reads it, and its
// split regexp is safe for concurrent use.
type lazyCodec struct {
	once  sync.Once
	codec tokenizer.Codec
}

// codecs is fixed at init and only read afterwards, so it needs no lock.
var codecs = map[tokenizer.Encoding]*lazyCodec{
	tokenizer.O200kBase:  {},
	tokenizer.Cl100kBase: {},
}

// codecFor returns the shared codec of enc, or nil if it can't be loaded.
func codecFor(enc tokenizer.Encoding) tokenizer.Codec {
	lc, ok := codecs[enc]
	if !ok {
		return nil
	}
	lc.once.Do(func() {
		c, err := tokenizer.Get(enc)
		if err == nil {
			lc.codec = c
		}
	})
	return lc.codec
}
