package brandcheck

import (
	"context"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/models"
)

// Audit log entries of a check.
const (
	// AuditAction is the action of each prompt's entry.
	AuditAction = "brand_check.ask"
	// AuditResource is the kind of the entries' resource (brand_check:<request id>).
	AuditResource = "brand_check"
)

// AuditTrail records a check's prompts in the service's audit log. An
// anonymous check belongs to no tenant, so its entries go to the brand
// check's service partition (audit.ScopeBrandCheck): one entry per
// platform and question — action brand_check.ask, resource
// brand_check:<request id>, actor anonymous:<first 16 hex digits of the
// day's client hash> (never the address), the question verbatim as the one
// user message the platform is sent — all in one transaction, before any
// is sent.
type AuditTrail struct{ log *audit.Log }

// NewAuditTrail returns the trail over log.
func NewAuditTrail(log *audit.Log) *AuditTrail { return &AuditTrail{log: log} }

// AuditPrompts implements Auditor.
func (a *AuditTrail) AuditPrompts(ctx context.Context, pa PromptAudit) error {
	ref := pa.ClientHash
	if len(ref) > 16 {
		ref = ref[:16]
	}
	actor := audit.Anonymous(ref)
	entries := make([]audit.Entry, 0, len(pa.Prompts))
	for _, p := range pa.Prompts {
		e := audit.New(0, actor, AuditAction, audit.Resource(AuditResource, pa.RequestID), audit.OutcomeAccepted, pa.At)
		entries = append(entries, e.WithModelCall(audit.ModelCall{Vendor: p.Platform,
			Prompt: []models.Message{{Role: models.RoleUser, Content: p.Text}}}))
	}
	return a.log.AppendService(ctx, audit.ScopeBrandCheck, entries...)
}
