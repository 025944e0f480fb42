// Command codegen writes the SDKs under sdk/ from the native provider's schema.json, with Pulumi's
// code generators for Node.js, Go and Python (github.com/pulumi/pulumi/pkg/v3/codegen), or, with
// -check, writes nothing and fails when a committed SDK file differs from what they generate (a
// file changed, missing or extra). Run from anywhere in the checkout:
//
//	npm run sdk                  # regenerate sdk/nodejs, sdk/go, sdk/python (dev/codegen/sdk.js)
//	npm run sdk -- --check       # the committed SDKs are exactly the generated ones
//
// Every doc in the SDKs is the schema's description of that resource, function or field: nothing
// here writes docs. What the schema does not say per language (the Go module path, the Python
// package name) is in languages.go.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into each file's "do not edit" header.
const tool = "reseller-pulumi sdkgen"

func main() {
	root, err := checkoutRoot()
	if err != nil {
		fail(err)
	}
	schemaPath := flag.String("schema", filepath.Join(root, schemaFile), "the provider's schema.json")
	out := flag.String("out", filepath.Join(root, "sdk"), "the folder that holds one folder per language")
	check := flag.Bool("check", false, "write nothing; exit 1 when a file under -out differs from what is generated")
	flag.Parse()

	sdks, err := generate(root, *schemaPath)
	if err != nil {
		fail(err)
	}
	if *check {
		differences, err := compare(*out, sdks)
		if err != nil {
			fail(err)
		}
		if len(differences) > 0 {
			fmt.Fprintf(os.Stderr, "codegen: the committed SDKs differ from what %s generates (run `npm run sdk` and commit):\n", filepath.Base(*schemaPath))
			for _, d := range differences {
				fmt.Fprintf(os.Stderr, "  %s\n", d)
			}
			os.Exit(1)
		}
		fmt.Printf("codegen: %d files in %d SDKs are what %s generates\n", countFiles(sdks), len(sdks), filepath.Base(*schemaPath))
		return
	}
	if err := write(*out, sdks); err != nil {
		fail(err)
	}
	fmt.Printf("codegen: wrote %d files in %d SDKs under %s\n", countFiles(sdks), len(sdks), *out)
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "codegen: %v\n", err)
	os.Exit(1)
}

// checkoutRoot is the nearest folder above the working directory that holds dev/codegen/go.mod.
func checkoutRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "dev", "codegen", "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("not inside a checkout of reseller-pulumi (no dev/codegen/go.mod above the working directory)")
		}
		dir = up
	}
}

// generate binds the schema once per language (each generator records its own language info on the
// package) and returns, per language folder, the files by their path inside it.
func generate(root, schemaPath string) (map[string]map[string][]byte, error) {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	generators := map[string]func(pkg *schema.Package) (map[string][]byte, error){
		"nodejs": func(pkg *schema.Package) (map[string][]byte, error) {
			files, err := nodejs.GeneratePackage(tool, pkg, nil, nil, false, noOtherPackages{})
			if err != nil {
				return nil, err
			}
			// The generator leaves the npm version for a release pipeline to fill in: it is the schema's.
			if pkg.Version != nil {
				files["package.json"] = bytes.ReplaceAll(files["package.json"], []byte("${VERSION}"), []byte(pkg.Version.String()))
			}
			return files, nil
		},
		"go": func(pkg *schema.Package) (map[string][]byte, error) {
			files, err := gogen.GeneratePackage(tool, pkg, nil)
			if err != nil {
				return nil, err
			}
			if err := goModule(root, files); err != nil {
				return nil, err
			}
			return files, nil
		},
		"python": func(pkg *schema.Package) (map[string][]byte, error) {
			return python.GeneratePackage(tool, pkg, nil, noOtherPackages{})
		},
	}
	sdks := map[string]map[string][]byte{}
	for language, gen := range generators {
		pkg, err := bind(raw, schemaPath)
		if err != nil {
			return nil, err
		}
		files, err := gen(pkg)
		if err != nil {
			return nil, fmt.Errorf("the %s generator: %w", language, err)
		}
		sdks[language] = files
	}
	return sdks, nil
}

// bind reads the schema, adds the language settings of languages.go and binds it with validation.
func bind(raw []byte, schemaPath string) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	if err := addLanguageSettings(&spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noOtherPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", schemaPath, diags.Error())
	}
	return pkg, nil
}

func countFiles(sdks map[string]map[string][]byte) int {
	n := 0
	for _, files := range sdks {
		n += len(files)
	}
	return n
}

// write makes each language folder under out hold exactly the generated files: it writes those
// that differ or are missing and removes the extra ones (a file of an earlier schema). What git
// ignores there (the Node.js SDK's node_modules/ and bin/ after a build) is left alone; a file
// that is already right is not touched.
func write(out string, sdks map[string]map[string][]byte) error {
	for language, files := range sdks {
		dir := filepath.Join(out, language)
		present, err := filesIn(dir)
		if err != nil {
			return err
		}
		for name := range present {
			if _, generated := files[name]; !generated {
				if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
					return err
				}
			}
		}
		for name, content := range files {
			file := filepath.Join(dir, filepath.FromSlash(name))
			if current, err := os.ReadFile(file); err == nil && bytes.Equal(current, content) {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(file, content, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// compare lists, per file, how the language folders under out differ from the generated files:
// "changed", "missing" (generated, not there) or "extra" (there, not generated). Inside a git work
// tree "there" is what git tracks or would add (so a git-ignored node_modules or __pycache__ is not
// extra); elsewhere, every file under the folder.
func compare(out string, sdks map[string]map[string][]byte) ([]string, error) {
	var differences []string
	for language, files := range sdks {
		dir := filepath.Join(out, language)
		present, err := filesIn(dir)
		if err != nil {
			return nil, err
		}
		shown := func(name string) string { return filepath.ToSlash(filepath.Join(filepath.Base(out), language, name)) }
		for name, content := range files {
			if !present[name] {
				differences = append(differences, "missing: "+shown(name))
				continue
			}
			committed, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(committed, content) {
				differences = append(differences, "changed: "+shown(name))
			}
		}
		for name := range present {
			if _, generated := files[name]; !generated {
				differences = append(differences, "extra: "+shown(name))
			}
		}
	}
	sort.Strings(differences)
	return differences, nil
}

// filesIn lists the files of dir by their slash path inside it: through git where dir is in a work
// tree (tracked, or untracked and not ignored; a tracked file deleted from disk is not there),
// otherwise by walking it. A missing dir holds no files.
func filesIn(dir string) (map[string]bool, error) {
	present := map[string]bool{}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return present, nil
	}
	if listed, err := exec.Command("git", "-C", dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate", ".").Output(); err == nil {
		for _, name := range strings.Split(string(listed), "\x00") {
			if name == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
				present[name] = true
			}
		}
		return present, nil
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		present[filepath.ToSlash(rel)] = true
		return nil
	})
	return present, err
}
