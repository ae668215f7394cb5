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

// The cache is bounded by the bytes of the nodes it holds as well as by
// their number, and keeps no node over maxCachedNode: it is shared by
// every store of the process and outlives them, and a session of large
// tool results would otherwise stay in memory long after it was read.
// Such a node costs more to hash, which every read does, than it saves.
const (
	maxCached      = 1 << 15
	maxCachedBytes = 64 << 20
	maxCachedNode  = 256 << 10
)

type nodeCache struct {
	mu    sync.Mutex
	m     map[Hash]Node
	bytes int // encoded size of the nodes in m
}

func (c *nodeCache) get(h Hash) (Node, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.m[h]
	n.Links = slices.Clone(n.Links)
	return n, ok
}

// put keeps n, decoded from size bytes.
func (c *nodeCache) put(n Node, size int) {
	if size > maxCachedNode {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[n.Hash]; ok {
		return
	}
	if len(c.m) >= maxCached || c.bytes+size > maxCachedBytes {
		clear(c.m)
		c.bytes = 0
	}
	n.Links = slices.Clone(n.Links)
	c.m[n.Hash] = n
	c.bytes += size
}
