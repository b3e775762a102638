package webhooks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/validation"
)

// ChangeSecretPurpose binds the sealed secret of a change that waits for
// approval to its approval request.
const ChangeSecretPurpose = "webhook-change-secret"

// heldChange is a change as its approval request keeps it: the secret
// sealed, bound to the request.
type heldChange struct {
	Change
	SealedSecret *secrets.Sealed `json:"sealedSecret,omitempty"`
}

// Hold returns c as the approval request approvalID keeps it until its
// review (the request's apply data): its secret sealed, as subscription
// secrets are, and bound to the request.
func (s *Service) Hold(ctx context.Context, tenantID int32, approvalID string, c Change) (json.RawMessage, error) {
	h := heldChange{Change: c}
	if c.Secret != nil {
		sl, err := s.secrets.Seal(ctx, *c.Secret, secrets.Binding{Purpose: ChangeSecretPurpose, TenantID: tenantID, RecordID: approvalID})
		if err != nil {
			return nil, fmt.Errorf("webhooks: seal the secret of a held change: %w", err)
		}
		h.Secret, h.SealedSecret = nil, &sl
	}
	return json.Marshal(h)
}

// PrepareHeld returns the writes of the change Hold kept for approvalID,
// once approved, for the review's transaction: a change that can no longer
// be applied (the tenant is full, the subscription is gone, a member is no
// longer valid) is its error, and nothing is written.
func (s *Service) PrepareHeld(ctx context.Context, tenantID int32, approvalID string, data json.RawMessage) (ChangeOps, error) {
	var h heldChange
	if err := json.Unmarshal(data, &h); err != nil {
		return ChangeOps{}, fmt.Errorf("webhooks: approval %s holds no change: %w", approvalID, err)
	}
	if h.SealedSecret != nil {
		secret, err := s.secrets.Open(ctx, *h.SealedSecret, secrets.Binding{Purpose: ChangeSecretPurpose, TenantID: tenantID, RecordID: approvalID})
		if err != nil {
			return ChangeOps{}, fmt.Errorf("webhooks: open the secret of a held change: %w", err)
		}
		h.Secret = &secret
	}
	c := h.Change
	switch c.Action {
	case ChangeCreate:
		_, _, ops, err := s.createOps(ctx, tenantID, c.subscription())
		return ops, err
	case ChangeUpdate:
		_, ops, err := s.updateOps(ctx, tenantID, c.SubscriptionID, c.patch())
		return ops, err
	case ChangeDelete:
		return s.deleteOps(ctx, tenantID, c.SubscriptionID)
	}
	return ChangeOps{}, validation.Field("action", "unknown change %q", c.Action)
}

// Actions of subscription changes (the audit log's and the approval
// requests' names).
const (
	ChangeCreate = "webhooks.create"
	ChangeUpdate = "webhooks.update"
	ChangeDelete = "webhooks.delete"
)

// Change is a subscription change that waits for a human's approval (an
// L0 agent's): checked when it is requested, carried out by PrepareHeld's
// writes once approved.
type Change struct {
	Action         string   `json:"action"`
	SubscriptionID string   `json:"subscriptionId,omitempty"`
	URL            *string  `json:"url,omitempty"`
	Events         []string `json:"events,omitempty"`
	Description    *string  `json:"description,omitempty"`
	Active         *bool    `json:"active,omitempty"`
	Secret         *string  `json:"secret,omitempty"`
}

// Shown is the change as a reviewer sees it: the secret is write-only.
func (c Change) Shown() Change {
	if c.Secret != nil {
		hidden := "(write-only: set)"
		c.Secret = &hidden
	}
	return c
}

func (c Change) subscription() NewSubscription {
	url := ""
	if c.URL != nil {
		url = *c.URL
	}
	return NewSubscription{URL: url, Events: c.Events, Description: c.Description, Active: c.Active, Secret: c.Secret}
}

func (c Change) patch() Patch {
	return Patch{URL: c.URL, Events: c.Events, Description: c.Description, Active: c.Active, Secret: c.Secret}
}

// CheckChange validates c as PrepareHeld will, without changing anything:
// the subscription of an update or delete exists (ErrNotFound), the
// members are valid. A create needs its own secret: a generated one could
// not be shown to the agent, whose change is applied later by a reviewer.
// It returns the URL the change is about, for the reviewer: the new
// subscription's, or the current URL of the one updated or deleted.
func (s *Service) CheckChange(ctx context.Context, tenantID int32, c Change) (url string, err error) {
	switch c.Action {
	case ChangeCreate:
		if c.Secret == nil {
			return "", validation.Field("secret", "is required when the subscription waits for approval: a generated secret could not be shown to you")
		}
		sub, _, err := s.newSubscription(tenantID, c.subscription())
		return sub.URL, err
	case ChangeUpdate:
		sub, err := s.GetSubscription(ctx, tenantID, c.SubscriptionID)
		if err != nil {
			return "", err
		}
		_, err = s.patched(sub, c.patch())
		return sub.URL, err
	case ChangeDelete:
		sub, err := s.GetSubscription(ctx, tenantID, c.SubscriptionID)
		return sub.URL, err
	}
	return "", validation.Field("action", "unknown change %q", c.Action)
}
