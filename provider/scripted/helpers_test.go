package scripted_test

import "github.com/batonrt/baton/contract"

func usage(in, out, cached int64) contract.Usage {
	return contract.Usage{InputTokens: in, OutputTokens: out, CachedTokens: cached}
}
