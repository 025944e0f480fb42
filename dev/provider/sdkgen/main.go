// Generates the provider's TypeScript SDK from schema.json with Pulumi's own Node.js code generator
// (github.com/pulumi/pulumi/pkg/v3/codegen/nodejs, at the version the CLI is pinned to). Run from
// the repository root: go run ./dev/provider/sdkgen <schema.json> <out folder>; `npm run
// provider-sdk` does, and `-- --check` fails when the committed SDK differs from what it makes.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noPackages loads no other package: the schema refers to none (pulumi.json's built-in types aside).
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("schema.json refers to package %q: it must refer to none", pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (noPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("schema.json refers to package %q: it must refer to none", pkg)
}

func (l noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: sdkgen <schema.json> <out folder> [--check]")
		os.Exit(2)
	}
	check := len(os.Args) > 3 && os.Args[3] == "--check"
	files, err := generate(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
	out := os.Args[2]
	if check {
		if diffs := differences(out, files); len(diffs) > 0 {
			for _, d := range diffs {
				fmt.Fprintln(os.Stderr, d)
			}
			fmt.Fprintln(os.Stderr, "the generated SDK differs from schema.json: run npm run provider-sdk")
			os.Exit(1)
		}
		return
	}
	// What an earlier run wrote goes (a file the schema no longer makes must not stay); what the SDK's build keeps there stays.
	for _, d := range differences(out, map[string][]byte{}) {
		if err := os.Remove(filepath.Join(out, d[len("extra: "):])); err != nil {
			fmt.Fprintln(os.Stderr, "sdkgen:", err)
			os.Exit(1)
		}
	}
	for name, text := range files {
		p := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			err = os.WriteFile(p, text, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "sdkgen:", err)
			os.Exit(1)
		}
	}
}

// generate binds the schema and runs the Node.js generator over it: file name -> text.
func generate(schemaPath string) (map[string][]byte, error) {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, err := schema.ImportSpec(spec, map[string]schema.Language{"nodejs": nodejs.Importer}, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	files, err := nodejs.GeneratePackage("reseller-pulumi sdkgen", pkg, nil, nil, false, noPackages{})
	if err != nil {
		return nil, err
	}
	// The generator leaves the version for a release pipeline to fill in: it is the schema's (the package's).
	if pkg.Version != nil {
		files["package.json"] = bytes.ReplaceAll(files["package.json"], []byte("${VERSION}"), []byte(pkg.Version.String()))
	}
	return files, nil
}

// built names what the SDK's own build writes beside the generated files (its .gitignore): never compared, never removed.
func built(rel string) bool {
	top := strings.SplitN(rel, "/", 2)[0]
	return top == "node_modules" || top == "bin"
}

// differences lists the files of `out` that are not what `files` holds (missing, changed or extra).
func differences(out string, files map[string][]byte) []string {
	var diffs []string
	seen := map[string]bool{}
	_ = filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if info.IsDir() {
			if rel != "." && built(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		seen[rel] = true
		want, ok := files[rel]
		if !ok {
			diffs = append(diffs, "extra: "+rel)
			return nil
		}
		have, _ := os.ReadFile(p)
		if !bytes.Equal(have, want) {
			diffs = append(diffs, "changed: "+rel)
		}
		return nil
	})
	for name := range files {
		if !seen[name] {
			diffs = append(diffs, "missing: "+name)
		}
	}
	sort.Strings(diffs)
	return diffs
}
