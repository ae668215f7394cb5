package store

// DamageObject flips a bit of an object a memory store holds, as a disk
// would, for the tests of package store_test.
func DamageObject(st Store, h Hash) {
	m := st.(*db).b.(*memBackend)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.objects[h][len(m.objects[h])/2] ^= 1
}
