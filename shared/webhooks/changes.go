package webhooks

import (
	"context"

	"github.com/brandlens/brandlens/shared/validation"
)

// Actions of subscription changes (the audit log's and the approval
// requests' names).
const (
	ChangeCreate = "webhooks.create"
	ChangeUpdate = "webhooks.update"
	ChangeDelete = "webhooks.delete"
)

// Change is a subscription change that waits for a human's approval (an
// L0 agent's): checked when it is requested, carried out by ApplyChange
// once approved.
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

// CheckChange validates c as ApplyChange will, without changing anything:
// the subscription of an update or delete exists (ErrNotFound), the
// members are valid. A create needs its own secret: a generated one could
// not be shown to the agent, whose change is applied later by a reviewer.
func (s *Service) CheckChange(ctx context.Context, tenantID int32, c Change) error {
	switch c.Action {
	case ChangeCreate:
		if c.Secret == nil {
			return validation.Field("secret", "is required when the subscription waits for approval: a generated secret could not be shown to you")
		}
		_, err := s.newSubscription(tenantID, c.subscription())
		return err
	case ChangeUpdate:
		sub, err := s.GetSubscription(ctx, tenantID, c.SubscriptionID)
		if err != nil {
			return err
		}
		_, err = s.patched(sub, c.patch())
		return err
	case ChangeDelete:
		_, err := s.GetSubscription(ctx, tenantID, c.SubscriptionID)
		return err
	}
	return validation.Field("action", "unknown change %q", c.Action)
}

// ApplyChange carries out an approved change.
func (s *Service) ApplyChange(ctx context.Context, tenantID int32, c Change) error {
	switch c.Action {
	case ChangeCreate:
		_, err := s.CreateSubscription(ctx, tenantID, c.subscription())
		return err
	case ChangeUpdate:
		_, err := s.UpdateSubscription(ctx, tenantID, c.SubscriptionID, c.patch())
		return err
	case ChangeDelete:
		return s.DeleteSubscription(ctx, tenantID, c.SubscriptionID)
	}
	return validation.Field("action", "unknown change %q", c.Action)
}
