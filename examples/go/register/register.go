// Package register is the README's "Register a domain and host its DNS" in Go, on the native
// provider's Go SDK (reseller-pulumi/sdk/go/reseller): a domain bought with a price ceiling and a
// renewal policy, its DNS zone and a record, and two lookups.
package register

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"reseller-pulumi/sdk/go/reseller"
)

// Program declares the resources; `pulumi up` runs it through main.go, the tests through the
// Automation API (../automation).
func Program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	name := cfg.Require("domain")
	var nameservers []string
	cfg.RequireObject("nameservers", &nameservers) // the service's DNS nameservers
	var registrant reseller.Contact
	cfg.RequireObject("registrant", &registrant) // secret config; the SDK keeps contacts secret

	domain, err := reseller.NewDomain(ctx, "shop", &reseller.DomainArgs{
		Domain:      pulumi.String(name),
		Contacts:    reseller.DomainContactsArgs{Registrant: contactArgs(registrant)},
		Nameservers: pulumi.ToStringArray(nameservers),
		MaxPrice:    pulumi.String("25.00"), // never buys above this quote
		Renewal: reseller.RenewalPolicyArgs{ // expiry-aware, never pays twice
			MinDaysRemaining: pulumi.Float64(30),
			Years:            pulumi.Float64(1),
		},
	}, pulumi.RetainOnDelete(true)) // the API cannot delete a domain: destroy leaves it registered
	if err != nil {
		return err
	}
	zone, err := reseller.NewDnsZone(ctx, "shop-zone", &reseller.DnsZoneArgs{
		Domain:            domain.Domain.Elem(),
		WaitForDelegation: pulumi.Bool(true),
	})
	if err != nil {
		return err
	}
	www, err := reseller.NewDnsRecord(ctx, "www", &reseller.DnsRecordArgs{
		Zone:    zone.Domain.Elem(),
		Type:    pulumi.String("CNAME"),
		Name:    pulumi.String("www"),
		Content: pulumi.String(name + "."),
	})
	if err != nil {
		return err
	}

	ctx.Export("stage", domain.Stage)
	ctx.Export("nameservers", zone.Nameservers)
	ctx.Export("wwwFqdn", www.Fqdn)
	ctx.Export("renewPrice", reseller.GetPricingOutput(ctx, reseller.GetPricingOutputArgs{
		Action: pulumi.String("renew"),
		Domain: domain.Domain.Elem(),
	}).Amount())
	ctx.Export("balance", reseller.GetBalanceOutput(ctx, reseller.GetBalanceOutputArgs{}).Balance())
	return nil
}

// contactArgs is a contact read from config as the SDK's input.
func contactArgs(c reseller.Contact) reseller.ContactArgs {
	return reseller.ContactArgs{
		Name:         pulumi.String(c.Name),
		Email:        pulumi.String(c.Email),
		Phone:        pulumi.String(c.Phone),
		Organization: pulumi.StringPtrFromPtr(c.Organization),
		AddressLine1: pulumi.String(c.AddressLine1),
		AddressLine2: pulumi.StringPtrFromPtr(c.AddressLine2),
		City:         pulumi.String(c.City),
		State:        pulumi.StringPtrFromPtr(c.State),
		PostalCode:   pulumi.StringPtrFromPtr(c.PostalCode),
		Country:      pulumi.String(c.Country),
	}
}
