package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime/debug"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// schemaFile is the native provider's schema (resources/provider/, issue 45), from the checkout's root.
const schemaFile = "schema.json"

// languageSettings is what each generator needs beyond the schema's resources and docs: where the Go
// SDK lives (docs/languages.md) and the Python package's name. The schema may carry the same
// settings itself; where it carries a different value for one, codegen fails rather than pick one.
var languageSettings = map[string]map[string]any{
	"go": {
		// The module is sdk/go (goModule); the package is sdk/go/reseller.
		"importBasePath": "reseller-pulumi/sdk/go/reseller",
		// The schema's version in the SDK: it asks the engine for that version of the plugin.
		"respectSchemaVersion": true,
		// Generate the Go types that hold arrays and maps of each resource (ArrayOf, MapOf), as
		// pulumi-cloudflare's SDK has.
		"generateResourceContainerTypes": true,
	},
	"python": {
		"packageName":          "pulumi_reseller",
		"respectSchemaVersion": true,
		"pyproject":            map[string]any{"enabled": true},
	},
}

// addLanguageSettings merges languageSettings into the spec's language section.
func addLanguageSettings(spec *schema.PackageSpec) error {
	if spec.Language == nil {
		spec.Language = map[string]schema.RawMessage{}
	}
	for language, settings := range languageSettings {
		merged := map[string]any{}
		if raw, ok := spec.Language[language]; ok {
			if err := json.Unmarshal(raw, &merged); err != nil {
				return fmt.Errorf("language.%s: %w", language, err)
			}
		}
		for key, value := range settings {
			if existing, ok := merged[key]; ok && !reflect.DeepEqual(normalize(existing), normalize(value)) {
				return fmt.Errorf("language.%s.%s is %v in the schema and %v in dev/codegen/languages.go: keep one", language, key, existing, value)
			}
			merged[key] = value
		}
		raw, err := json.Marshal(merged)
		if err != nil {
			return err
		}
		spec.Language[language] = raw
	}
	return nil
}

// goModulePath is the Go SDK's module: the folder above importBasePath's package.
const goModulePath = "reseller-pulumi/sdk/go"

// goModule adds sdk/go's go.mod and go.sum to the Go generator's files, so that a Go user building
// inside sdk/go resolves nothing afresh and the drift check guards both. Pulumi's Go generator writes
// a go.mod only for a package in "pack" mode (which would also write the schema's version into the
// Node.js SDK's package.json), and never a go.sum. The module requires the Pulumi Go SDK this
// generator is built with (the CLI's pinned version, dev/pulumi-cli/go.mod), not the generator's
// own minimum (v3.269.0): that version's modules are the ones the CLI's build puts in Go's module
// cache, so `go mod tidy` needs no network where the CLI was built. The tidy runs in a temporary
// folder holding the generated package, with the checksums Go already verified for this checkout
// (dev/codegen/go.sum, examples/go/go.sum) as its starting go.sum; it keeps only what the SDK needs.
func goModule(root string, files map[string][]byte) error {
	pulumiSDK, err := builtWith("github.com/pulumi/pulumi/sdk/v3")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "reseller-sdk-go-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for name, content := range files {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			return err
		}
	}
	goMod := "module " + goModulePath + "\n\ngo 1.25\n\nrequire (\n\tgithub.com/pulumi/pulumi/sdk/v3 " + pulumiSDK + "\n" + builtWithRequirements() + ")\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		return err
	}
	var known []byte
	for _, sum := range []string{filepath.Join(root, "dev", "codegen", "go.sum"), filepath.Join(root, "examples", "go", "go.sum")} {
		if content, err := os.ReadFile(sum); err == nil {
			known = append(known, content...)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), known, 0o644); err != nil {
		return err
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = dir
	// The module cache first (-mod=mod lets tidy write go.mod); the environment's GOPROXY only for
	// what the cache lacks. GOTOOLCHAIN=local: never download a Go toolchain for it.
	tidy.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := tidy.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy of the Go SDK (sdk/go): %w\n%s", err, out)
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		files[name] = content
	}
	return nil
}

// builtWithRequirements is a require line for every module this program is built with, at its
// version here, which is the CLI's (dev/codegen/go.mod is tidied against the CLI's pkg/v3). The tidy
// keeps those the SDK's packages use and drops the rest: without them the SDK's own minimum versions
// won (an older grpc, protobuf and otel than the CLI's), and Go compiled some 400 packages a second
// time for sdk/go and examples/go instead of taking them from the CLI's build in its cache.
func builtWithRequirements() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	lines := ""
	for _, dep := range info.Deps {
		version := dep.Version
		if dep.Replace != nil {
			version = dep.Replace.Version
		}
		if dep.Path == "github.com/pulumi/pulumi/sdk/v3" || version == "" || version == "(devel)" {
			continue
		}
		lines += "\t" + dep.Path + " " + version + "\n"
	}
	return lines
}

// builtWith is the version of module path this program is built with.
func builtWith(path string) (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("no build information: run codegen with `go run` or `go build` in dev/codegen")
	}
	for _, dep := range info.Deps {
		if dep.Path == path {
			if dep.Replace != nil {
				return dep.Replace.Version, nil
			}
			return dep.Version, nil
		}
	}
	return "", fmt.Errorf("%s is not among codegen's modules", path)
}

// normalize passes a value through JSON, so that a Go literal and its decoded JSON compare equal.
func normalize(value any) any {
	raw, _ := json.Marshal(value)
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}
