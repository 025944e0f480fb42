package main

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// schemaFile is the native provider's schema (resources/provider/, issue 45), from the checkout's root.
const schemaFile = "schema.json"

// languageSettings is what each generator needs beyond the schema's resources and docs: where the Go
// SDK lives (docs/languages.md) and the Python package's name. The schema may carry the same
// settings itself; where it carries a different value for one, codegen fails rather than pick one.
var languageSettings = map[string]map[string]any{
	"go": {
		// The module is sdk/go (goMod); the package is sdk/go/reseller.
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

// goMod is sdk/go/go.mod. Pulumi's Go generator writes one only for a package in "pack" mode, which
// would also write the schema's version into the Node.js SDK's package.json; this one is what it
// would write: the module and the Pulumi SDK the generated code needs.
func goMod() []byte {
	return []byte("module " + goModulePath + "\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.269.0\n")
}

// normalize passes a value through JSON, so that a Go literal and its decoded JSON compare equal.
func normalize(value any) any {
	raw, _ := json.Marshal(value)
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}
