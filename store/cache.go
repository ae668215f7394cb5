package store

import (
	"slices"
	"sync"
)

// parsed remembers decoded nodes by hash. Objects are immutable and named
// by their content, so once bytes that hash to h were parsed, any bytes
// that hash to h parse the same: reads still re-hash, they only skip the
// JSON decoding. The records handed out share their signals; like every
// contract value they are read-only.
var parsed = nodeCache{m: map[Hash]Node{}}

const maxCached = 1 << 15

type nodeCache struct {
	mu sync.Mutex
	m  map[Hash]Node
}

func (c *nodeCache) get(h Hash) (Node, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.m[h]
	n.Links = slices.Clone(n.Links)
	return n, ok
}

func (c *nodeCache) put(n Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxCached {
		clear(c.m)
	}
	n.Links = slices.Clone(n.Links)
	c.m[n.Hash] = n
}
