package compactor_test

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
	"github.com/zeebo/blake3"
)

func history() []contract.Turn {
	return []contract.Turn{user("first question"), calling("1"), results("1"), assistant("answer"), user("next"), assistant("done")}
}

func TestCondense(t *testing.T) {
	turns := history()
	orig := clone(t, turns)
	got := compactor.Condense("gpt-4o", turns, 4, "the user asked; a file was read")
	if diff := cmp.Diff(orig, turns); diff != "" {
		t.Fatalf("Condense modified its input (-want +got):\n%s", diff)
	}
	sum := contract.Turn{Role: contract.RoleUser, Mark: contract.MarkSummary, Blocks: []contract.Block{contract.TextBlock("the user asked; a file was read")}}
	sum.Tokens = compactor.Estimate("gpt-4o", sum)
	arch := compactor.Archive{First: blakeHex(t, turns[0]), Last: blakeHex(t, turns[3]), Count: 4}
	mark := contract.Turn{Role: contract.RoleUser, Mark: contract.MarkArchive, Blocks: []contract.Block{contract.TextBlock(arch.String())}}
	mark.Tokens = compactor.Estimate("gpt-4o", mark)
	want := []contract.Turn{sum, mark, turns[4], turns[5]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	parsed, ok := compactor.ArchiveOf(got[1])
	if !ok {
		t.Fatalf("ArchiveOf(%q) = false", got[1].Text())
	}
	if diff := cmp.Diff(arch, parsed); diff != "" {
		t.Errorf("archive mismatch (-want +got):\n%s", diff)
	}
}

func TestCondenseBounds(t *testing.T) {
	turns := history()
	tests := []struct {
		name      string
		cut       int
		wantLen   int
		wantCount int
	}{
		{"cut zero replaces nothing", 0, len(turns), 0},
		{"negative cut replaces nothing", -3, len(turns), 0},
		{"cut past the end replaces all", 99, 2, len(turns)},
		{"cut one", 1, len(turns) + 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compactor.Condense("", turns, tt.cut, "s")
			if len(got) != tt.wantLen {
				t.Fatalf("len = %d, want %d", len(got), tt.wantLen)
			}
			if tt.wantCount == 0 {
				if diff := cmp.Diff(turns, got); diff != "" {
					t.Errorf("mismatch (-want +got):\n%s", diff)
				}
				return
			}
			a, ok := compactor.ArchiveOf(got[1])
			if !ok || a.Count != tt.wantCount {
				t.Errorf("archive = %+v, %v; want count %d", a, ok, tt.wantCount)
			}
		})
	}
}

func TestArchiveOfRejects(t *testing.T) {
	good := compactor.Condense("", history(), 2, "s")[1]
	first := compactor.TurnHash(history()[0])
	tests := map[string]contract.Turn{
		"not an archive":      user(good.Text()),
		"no closing bracket":  marked(contract.MarkArchive, good.Text()[:len(good.Text())-1]),
		"not hex":             marked(contract.MarkArchive, "[archive: the summary above replaced 2 earlier turns; blake3-256 first=zz last=zz]"),
		"zero count":          marked(contract.MarkArchive, "[archive: the summary above replaced 0 earlier turns; blake3-256 first=00 last=00]"),
		"free text":           marked(contract.MarkArchive, "something else]"),
		"text after the hash": marked(contract.MarkArchive, strings.TrimSuffix(good.Text(), "]")+" and more]"),
		"signed count":        marked(contract.MarkArchive, strings.Replace(good.Text(), "replaced 2", "replaced +2", 1)),
		"padded count":        marked(contract.MarkArchive, strings.Replace(good.Text(), "replaced 2", "replaced 02", 1)),
		"upper case hash":     marked(contract.MarkArchive, strings.Replace(good.Text(), first, strings.ToUpper(first), 1)),
		"two text blocks":     {Role: contract.RoleUser, Mark: contract.MarkArchive, Blocks: []contract.Block{contract.TextBlock("[archive: junk"), good.Blocks[0]}},
	}
	for name, tr := range tests {
		t.Run(name, func(t *testing.T) {
			if a, ok := compactor.ArchiveOf(tr); ok {
				t.Errorf("ArchiveOf accepted %q as %+v", tr.Text(), a)
			}
		})
	}
}

func TestTurnHashIsCanonical(t *testing.T) {
	a := contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{contract.TextBlock("<b>&</b>")}}
	if got, want := compactor.TurnHash(a), blakeHex(t, a); got != want {
		t.Errorf("TurnHash = %s, want %s", got, want)
	}
	b := a
	b.Tokens = 1
	if compactor.TurnHash(a) == compactor.TurnHash(b) {
		t.Error("turns that differ hash the same")
	}
}

// blakeHex hashes the JSON of t the way contract's canonical encoding
// writes it: no HTML escaping, no whitespace.
func blakeHex(t *testing.T, tr contract.Turn) string {
	t.Helper()
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	b = unescapeHTML(b)
	sum := blake3.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func unescapeHTML(b []byte) []byte {
	r := []byte{}
	s := string(b)
	for i := 0; i < len(s); i++ {
		if i+6 <= len(s) && s[i:i+4] == `\u00` {
			switch s[i+4 : i+6] {
			case "3c":
				r = append(r, '<')
				i += 5
				continue
			case "3e":
				r = append(r, '>')
				i += 5
				continue
			case "26":
				r = append(r, '&')
				i += 5
				continue
			}
		}
		r = append(r, s[i])
	}
	return r
}

func clone(t *testing.T, turns []contract.Turn) []contract.Turn {
	t.Helper()
	b, err := json.Marshal(turns)
	if err != nil {
		t.Fatal(err)
	}
	var out []contract.Turn
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
