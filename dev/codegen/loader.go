package main

import (
	"context"
	"fmt"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noOtherPackages is the loader the binder and the generators are given: the schema refers to no
// other package (no other provider's types), so any request for one is an error, not a download.
type noOtherPackages struct{}

var _ schema.ReferenceLoader = noOtherPackages{}

func refuse(name string) error {
	return fmt.Errorf("the schema refers to package %q: it must be whole on its own (no other package's types)", name)
}

func (noOtherPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, refuse(pkg)
}

func (noOtherPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refuse(d.Name)
}

func (noOtherPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, refuse(pkg)
}

func (noOtherPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, refuse(d.Name)
}
