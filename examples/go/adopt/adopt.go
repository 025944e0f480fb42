// Package adopt takes a DNS zone the account already has into a stack by its id (the import
// resource option: no create, no write), and reads it with the GetZone lookup.
package adopt

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"reseller-pulumi/sdk/go/reseller"
)

// Program imports the zone named by the config key `zone` (a DnsZone's id is its domain) and keeps
// it on destroy; it exports what the lookup reads.
func Program(ctx *pulumi.Context) error {
	name := config.New(ctx, "").Require("zone")
	zone, err := reseller.NewDnsZone(ctx, "existing", &reseller.DnsZoneArgs{
		Domain: pulumi.String(name),
	}, pulumi.Import(pulumi.ID(name)), pulumi.RetainOnDelete(true))
	if err != nil {
		return err
	}
	looked, err := reseller.GetZone(ctx, &reseller.GetZoneArgs{Domain: name})
	if err != nil {
		return err
	}
	ctx.Export("zoneStatus", zone.Status)
	ctx.Export("lookupStatus", pulumi.String(looked.Status))
	ctx.Export("lookupNameservers", pulumi.ToStringArray(looked.Nameservers))
	ctx.Export("lookupRecordsCount", pulumi.Float64(looked.RecordsCount))
	return nil
}
