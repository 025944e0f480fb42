// The README's "Register a domain and host its DNS" in Go: `pulumi up` in this folder runs it with
// the Go language host, as for any Go project (Pulumi.yaml: runtime go). The tests run the same
// program through the Automation API instead (automation/).
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"reseller-pulumi/examples/go/register"
)

func main() {
	pulumi.Run(register.Program)
}
