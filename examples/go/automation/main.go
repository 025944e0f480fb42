// Command automation runs one of this module's programs as an inline program of the Go Automation API
// (github.com/pulumi/pulumi/sdk/v3/go/auto): the Pulumi CLI on PATH runs the engine and connects to
// this process with --client, so no Go language host is needed. It is how the tests run the Go
// programs against the sandbox, one operation per run:
//
//	automation -program register|adopt -dir <project folder> -stack <name> -op preview|up|refresh|destroy [-expect-no-changes]
//
// Standard input: the stack's config, {"key": {"value": "...", "secret": true}, ...}, set before the
// operation. The backend and the passphrase come from PULUMI_BACKEND_URL and PULUMI_CONFIG_PASSPHRASE,
// and the provider plugin from -plugin (the folder holding pulumi-resource-reseller; the project's
// plugins.providers). Standard output: one JSON object, the operation's change counts and, after up,
// the stack's outputs (secrets as "[secret]"); the engine's own output goes to standard error.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"reseller-pulumi/examples/go/adopt"
	"reseller-pulumi/examples/go/register"
)

var programs = map[string]pulumi.RunFunc{
	"register": register.Program,
	"adopt":    adopt.Program,
}

// result is what a run prints: the change counts by operation ("create": 3, "same": 1, ...).
type result struct {
	Changes map[string]int `json:"changes"`
	Outputs map[string]any `json:"outputs,omitempty"`
}

func main() {
	name := flag.String("program", "register", "the program: register or adopt")
	dir := flag.String("dir", "", "the project folder (Pulumi.yaml and the stack's config are kept there)")
	stackName := flag.String("stack", "dev", "the stack")
	op := flag.String("op", "preview", "preview, up, refresh or destroy")
	plugin := flag.String("plugin", "", "the folder holding pulumi-resource-reseller")
	expectNoChanges := flag.Bool("expect-no-changes", false, "fail when the operation would change anything")
	flag.Parse()
	if err := run(*name, *dir, *stackName, *op, *plugin, *expectNoChanges); err != nil {
		fmt.Fprintf(os.Stderr, "automation: %v\n", err)
		os.Exit(1)
	}
}

func run(name, dir, stackName, op, plugin string, expectNoChanges bool) error {
	program, ok := programs[name]
	if !ok {
		return fmt.Errorf("no program %q (register or adopt)", name)
	}
	if dir == "" || plugin == "" {
		return fmt.Errorf("-dir and -plugin are required")
	}
	var settings map[string]auto.ConfigValue
	if err := json.NewDecoder(os.Stdin).Decode(&settings); err != nil {
		return fmt.Errorf("the config on standard input: %w", err)
	}

	ctx := context.Background()
	project := workspace.Project{
		Name:    tokens.PackageName("reseller-go-" + name),
		Runtime: workspace.NewProjectRuntimeInfo("go", nil),
		Plugins: &workspace.Plugins{Providers: []workspace.PluginOptions{{Name: "reseller", Path: plugin}}},
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, string(project.Name), program, auto.WorkDir(dir), auto.Project(project))
	if err != nil {
		return err
	}
	if err := stack.SetAllConfig(ctx, settings); err != nil {
		return err
	}

	engine := os.Stderr
	out := result{}
	switch op {
	case "preview":
		opts := []optpreview.Option{optpreview.ProgressStreams(engine)}
		if expectNoChanges {
			opts = append(opts, optpreview.ExpectNoChanges())
		}
		r, err := stack.Preview(ctx, opts...)
		if err != nil {
			return err
		}
		out.Changes = counts(r.ChangeSummary)
	case "up":
		opts := []optup.Option{optup.ProgressStreams(engine)}
		if expectNoChanges {
			opts = append(opts, optup.ExpectNoChanges())
		}
		r, err := stack.Up(ctx, opts...)
		if err != nil {
			return err
		}
		out.Changes = deref(r.Summary.ResourceChanges)
		out.Outputs = map[string]any{}
		for key, o := range r.Outputs {
			if o.Secret {
				out.Outputs[key] = "[secret]"
			} else {
				out.Outputs[key] = o.Value
			}
		}
	case "refresh":
		opts := []optrefresh.Option{optrefresh.ProgressStreams(engine)}
		if expectNoChanges {
			opts = append(opts, optrefresh.ExpectNoChanges())
		}
		r, err := stack.Refresh(ctx, opts...)
		if err != nil {
			return err
		}
		out.Changes = deref(r.Summary.ResourceChanges)
	case "destroy":
		r, err := stack.Destroy(ctx, optdestroy.ProgressStreams(engine))
		if err != nil {
			return err
		}
		out.Changes = deref(r.Summary.ResourceChanges)
	default:
		return fmt.Errorf("no operation %q (preview, up, refresh or destroy)", op)
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

func counts[K ~string](m map[K]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}

func deref(m *map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return *m
}
