package vfs

import "testing"

func TestKernelAtLeast(t *testing.T) {
	for _, tt := range []struct {
		release string
		want    bool
	}{
		{"5.8.0", true},
		{"5.7.19", false},
		{"6.1.0-13-amd64", true},
		{"4.19.0", false},
		{"5.10", true},
		{"5.15+", true},
		{"5", false},
		{"", false},
		{"x.y", false},
		{"10.0.1", true},
	} {
		if got := kernelAtLeast(tt.release, 5, 8); got != tt.want {
			t.Errorf("kernelAtLeast(%q, 5, 8) = %v, want %v", tt.release, got, tt.want)
		}
	}
}
