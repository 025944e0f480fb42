//go:build tools

// Package tools pins the YAML language host's main package so that `go mod tidy` keeps its dependencies.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
