// Command pulumi-language-nodejs is the Node.js language host this repository's tests and demo give
// the real Pulumi CLI.
//
// Pulumi's own host (module github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is
// not served by the Go module proxy our machines reach, at any version. This one keeps to the part
// of its contract that running a program needs, and to the same launch of the program: the CLI
// starts it with the engine's address, it prints its port, and Run starts
// `node <@pulumi/pulumi/cmd/run> --monitor ... <entry point>` in the program's folder, with the
// stack's configuration in PULUMI_CONFIG, as Pulumi's host does. What it leaves out (package
// installs, code generation, debugging, plugins written in Node.js, the synchronous-invoke pipes)
// answers Unimplemented, which the CLI treats as "not offered".
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// The exit code with which @pulumi/pulumi's run script says it has already shown the user an
// actionable message: the CLI then adds nothing.
const exitAfterActionableMessage = 32

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string

	mu      sync.Mutex
	running map[*exec.Cmd]struct{}
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-version" {
		fmt.Println(version.Version)
		return
	}
	h := &host{running: map[*exec.Cmd]struct{}{}}
	for _, arg := range os.Args[1:] {
		if !strings.HasPrefix(arg, "-") {
			h.engineAddress = arg
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, h)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
		os.Exit(1)
	}
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

func (h *host) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.engineAddress = req.GetEngineAddress()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetProgramDependencies(
	context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *host) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, err
	}
	out, _ := exec.Command(node, "--version").Output()
	return &pulumirpc.AboutResponse{Executable: node, Version: strings.TrimSpace(string(out))}, nil
}

// Cancel interrupts the programs that are running, as Pulumi's host does: SIGINT first, and Run's
// wait ends five seconds later whatever they do.
func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for cmd := range h.running {
		_ = cmd.Process.Signal(syscall.SIGINT)
	}
	return &emptypb.Empty{}, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir := info.GetProgramDirectory()
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the $PATH: " + err.Error()}, nil
	}
	runScript, err := resolveRunScript(ctx, node, programDir)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	env, err := programEnv(req)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	var nodeArgs []string
	if opts := info.GetOptions().AsMap(); opts != nil {
		if v, ok := opts["typescript"].(bool); ok && !v {
			env = append(env, "PULUMI_NODEJS_TYPESCRIPT=false")
		} else {
			env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
		}
		if v, ok := opts["tsconfig"].(string); ok && v != "" {
			env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+v)
		}
		if v, ok := opts["nodeargs"].(string); ok && v != "" {
			nodeArgs = strings.Fields(v)
		}
	}

	args := append(nodeArgs, runScript)
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", h.engineAddress)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("root-directory", info.GetRootDirectory())
	flag("stack", req.GetStack())
	flag("pwd", programDir)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	args = append(args, info.GetEntryPoint())
	args = append(args, req.GetArgs()...)

	cmd := exec.Command(node, args...)
	cmd.Dir = programDir
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return &pulumirpc.RunResponse{Error: "could not run node: " + err.Error()}, nil
	}
	h.track(cmd, true)
	defer h.track(cmd, false)

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case err = <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			err = <-done
		}
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exit) && exit.ExitCode() == exitAfterActionableMessage:
		return &pulumirpc.RunResponse{Bail: true}, nil
	case errors.As(err, &exit):
		return &pulumirpc.RunResponse{
			Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exit.ExitCode()),
		}, nil
	default:
		return &pulumirpc.RunResponse{Error: "Problem executing program: " + err.Error()}, nil
	}
}

func (h *host) track(cmd *exec.Cmd, running bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if running {
		h.running[cmd] = struct{}{}
	} else {
		delete(h.running, cmd)
	}
}

// resolveRunScript finds @pulumi/pulumi's run script as the program's own Node.js would, from the
// program's folder.
func resolveRunScript(ctx context.Context, node, programDir string) (string, error) {
	cmd := exec.CommandContext(ctx, node, "-e", "console.log(require.resolve('@pulumi/pulumi/cmd/run'))")
	cmd.Dir = programDir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf(
			"it looks like the Pulumi SDK has not been installed: @pulumi/pulumi could not be resolved from %s; "+
				"run `npm install` there", programDir)
	}
	return strings.TrimSpace(string(out)), nil
}

// programEnv is this process's environment with the stack's configuration and the names of its secret
// keys, in the form @pulumi/pulumi reads: keys as <namespace>:config:<name>, which every SDK version
// since 1.0 accepts.
func programEnv(req *pulumirpc.RunRequest) ([]string, error) {
	cfg := map[string]string{}
	for k, v := range req.GetConfig() {
		key, err := config.ParseKey(k)
		if err != nil {
			return nil, err
		}
		cfg[key.Namespace()+":config:"+key.Name()] = v
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return append(os.Environ(),
		"PULUMI_CONFIG="+string(cfgJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON),
	), nil
}
