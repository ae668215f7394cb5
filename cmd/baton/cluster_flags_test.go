package main

import (
	"net"
	"strings"
	"testing"
)

func TestAdvertiseURL(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8081}
	every := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	tests := []struct {
		flag      string
		listen    net.Addr
		want, err string
	}{
		{"", loopback, "http://127.0.0.1:8081", ""},
		{"https://node-a.internal:8443", loopback, "https://node-a.internal:8443", ""},
		{"http://10.0.0.5:8080/baton", every, "http://10.0.0.5:8080/baton", ""},
		{"", every, "", "set --advertise"},
		{"node-a:8080", loopback, "", "--advertise"},
		{"ftp://node-a", loopback, "", "--advertise"},
		{"http://", loopback, "", "--advertise"},
	}
	for _, tt := range tests {
		got, err := advertiseURL(tt.flag, tt.listen)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("advertiseURL(%q, %s) = %q, %v; want an error saying %q", tt.flag, tt.listen, got, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("advertiseURL(%q, %s) = %q, %v; want %q", tt.flag, tt.listen, got, err, tt.want)
		}
	}
}

func TestCleartextToken(t *testing.T) {
	tests := []struct {
		advertised, token string
		want              bool
	}{
		{"http://10.0.0.5:8080", "secret", true},
		{"http://node-a.internal:8080", "secret", true},
		{"https://node-a.internal:8443", "secret", false},
		{"http://127.0.0.1:8081", "secret", false},
		{"http://localhost:8081", "secret", false},
		{"http://[::1]:8081", "secret", false},
		{"http://10.0.0.5:8080", "", false},
	}
	for _, tt := range tests {
		if got := cleartextToken(tt.advertised, tt.token); got != tt.want {
			t.Errorf("cleartextToken(%q, %q) = %v, want %v", tt.advertised, tt.token, got, tt.want)
		}
	}
}
