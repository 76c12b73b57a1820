package execveat

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fencedBlock is the text of README.md's first block fenced as lang.
func fencedBlock(t *testing.T, readme, lang string) string {
	start := strings.Index(readme, "```"+lang+"\n")
	if start < 0 {
		t.Fatalf("README.md has no ```%s block", lang)
	}
	body := readme[start+len(lang)+4:]
	return body[:strings.Index(body, "```")]
}

// The README's example, built as a program of its own that requires
// this module, prints what the README says.
func TestReadmeExampleRuns(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module readme\n\ngo 1.19\n\nrequire libexecveat.org/go/execveat v0.0.0\n\n" +
		"replace libexecveat.org/go/execveat => " + here + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(fencedBlock(t, readme, "go")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	if want := fencedBlock(t, readme, "text"); string(out) != want {
		t.Errorf("the example printed\n%s\nnot what README.md says:\n%s", out, want)
	}
}
