// Package destinations holds publish destinations: where a tenant's
// articles go when they are published. A destination is either a webhook
// (channel B of the spec: one signed POST of the PublishPayload to the
// customer's endpoint) or the service's own site (the same POST to the
// site-content receiver, signed with the site-content secret).
//
// A webhook's URL passes the same SSRF guard as event subscriptions
// (package ssrf): at creation here, and at connect time in the publish
// client. The secret is write-only: stored (sealed by a SecretBox), never
// shown back, only whether one is set.
package destinations

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/validation"
)

// Types of destinations.
const (
	TypeWebhook = "webhook"
	TypeOwnSite = "own_site"
)

// Types lists the destination types (the API's enum).
var Types = []string{TypeWebhook, TypeOwnSite}

// SiteContentTypes are the sections of the service's own site (the
// {type} of the site-content receiver, PublishPayload.ContentType).
var SiteContentTypes = []string{"knowledge", "research", "news"}

// Limits.
const (
	MaxName          = 200
	MaxAuthor        = 200 // the spec's cap on PublishPayload.Author
	MinSecretLength  = 16
	MaxSecretLength  = 256
	MaxPerTenant     = 50
	idPrefix         = "dst_"
	skPrefix         = "DESTINATION#"
	maxIndexNowKey   = 128
	defaultOwnSiteCT = "knowledge"
)

// ErrNotFound: no such destination in the tenant.
var ErrNotFound = errors.New("destinations: not found")

// Destination is a stored publish destination. Secret is sealed at rest
// (SecretBox) and never leaves the service through the API.
type Destination struct {
	ID       string `json:"id"`
	TenantID int32  `json:"tenantId"`
	Type     string `json:"type"`
	Name     string `json:"name"`
	// URL is the webhook's endpoint; empty for own_site, whose endpoint is
	// the service's receiver.
	URL string `json:"url"`
	// SiteContentType is the section of the own site (own_site only).
	SiteContentType string `json:"siteContentType,omitempty"`
	// SealedSecret is the secret as the SecretBox sealed it ("" = none).
	SealedSecret  string `json:"sealedSecret,omitempty"`
	DefaultAuthor string `json:"defaultAuthor,omitempty"`
	IndexNowKey   string `json:"indexNowKey,omitempty"`
	IndexNowHost  string `json:"indexNowHost,omitempty"`
	// IndexNowKeyLocation is where the key file is served (optional: the
	// protocol's default is https://<host>/<key>.txt).
	IndexNowKeyLocation string    `json:"indexNowKeyLocation,omitempty"`
	CreatedAt           time.Time `json:"createdAt"`
	UpdatedAt           time.Time `json:"updatedAt"`
}

// HasSecret reports whether deliveries to d are signed.
func (d Destination) HasSecret() bool { return d.SealedSecret != "" }

// IndexNow reports whether publishing to d pings IndexNow.
func (d Destination) IndexNow() bool { return d.IndexNowKey != "" }

// SecretBox seals destination secrets at rest (the binding names the
// tenant and destination, so a sealed value copied onto another
// destination does not open).
type SecretBox interface {
	Seal(ctx context.Context, tenantID int32, destinationID, secret string) (string, error)
	Open(ctx context.Context, tenantID int32, destinationID, sealed string) (string, error)
	// Current reports whether sealed is sealed under the current key (false
	// after a rotation, or for a value that is no envelope).
	Current(sealed string) bool
}

// SecretPurpose binds sealed destination secrets to what they are (the
// KMS encryption context's purpose).
const SecretPurpose = "publish-destination-secret"

// Sealed is the SecretBox of package secrets: AES-256-GCM envelopes under
// the KMS key in AWS, the data directory's keyring locally, stored as the
// envelope's JSON.
type Sealed struct{ Sealer *secrets.Sealer }

func binding(tenantID int32, destinationID string) secrets.Binding {
	return secrets.Binding{Purpose: SecretPurpose, TenantID: tenantID, RecordID: destinationID}
}

// Seal implements SecretBox.
func (b Sealed) Seal(ctx context.Context, tenantID int32, destinationID, secret string) (string, error) {
	sl, err := b.Sealer.Seal(ctx, secret, binding(tenantID, destinationID))
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(sl)
	return string(out), err
}

// Open implements SecretBox.
func (b Sealed) Open(ctx context.Context, tenantID int32, destinationID, sealed string) (string, error) {
	var sl secrets.Sealed
	if err := json.Unmarshal([]byte(sealed), &sl); err != nil {
		return "", fmt.Errorf("destinations: the stored secret of %s is no sealed envelope: %w", destinationID, err)
	}
	return b.Sealer.Open(ctx, sl, binding(tenantID, destinationID))
}

// Current implements SecretBox.
func (b Sealed) Current(sealed string) bool {
	var sl secrets.Sealed
	return json.Unmarshal([]byte(sealed), &sl) == nil && b.Sealer.Current(sl)
}

// New is a create request.
type New struct {
	Type string
	Name string
	URL  string
	Settings
}

// Patch changes the members that are set; an empty string clears the
// optional ones (secret, default author, IndexNow settings).
type Patch struct {
	Name *string
	URL  *string
	Settings
}

// Settings are the optional members a create or a patch may set.
type Settings struct {
	SiteContentType     *string
	Secret              *string
	DefaultAuthor       *string
	IndexNowKey         *string
	IndexNowHost        *string
	IndexNowKeyLocation *string
}

// Service manages destinations.
type Service struct {
	tbl   store.Table
	guard ssrf.Guard
	box   SecretBox
	now   func() time.Time
}

// NewService returns the service; guard checks webhook URLs, box seals
// secrets.
func NewService(tbl store.Table, guard ssrf.Guard, box SecretBox, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{tbl: tbl, guard: guard, box: box, now: now}
}

// Key is the item key of a destination.
func Key(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: skPrefix + id}
}

func countKey(tenantID int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "DESTINATIONCOUNT"}
}

func (s *Service) docs() store.Collection[Destination] {
	return store.Collection[Destination]{
		Table: s.tbl, Name: "destinations: destination", NotFound: ErrNotFound,
		Key:   func(d Destination) store.Key { return Key(d.TenantID, d.ID) },
		Attrs: func(d Destination) store.Item { return store.Item{"kind": "destination"} },
	}
}

// indexNowKeyRE is the key format of the IndexNow protocol: 8–128
// characters of a-z A-Z 0-9 and dashes.
var indexNowKeyRE = regexp.MustCompile(`^[A-Za-z0-9-]{8,128}$`)

// hostRE is a DNS host name (labels of letters, digits and dashes).
var hostRE = regexp.MustCompile(`^(?i)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$`)

func checkText(field, v string, max int, ve *validation.Error) string {
	v = strings.TrimSpace(v)
	if utf8.RuneCountInString(v) > max {
		ve.Add(field, "must be at most %d characters", max)
	}
	if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		ve.Add(field, "must not contain control characters")
	}
	return v
}

func checkSecret(v string, ve *validation.Error) {
	n := utf8.RuneCountInString(v)
	if n < MinSecretLength || n > MaxSecretLength {
		ve.Add("secret", "must be %d to %d characters (or \"\" to send unsigned)", MinSecretLength, MaxSecretLength)
		return
	}
	if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		ve.Add("secret", "must not contain control characters")
	}
}

// apply validates and sets the settable members on d.
func (s *Service) apply(d *Destination, p Patch, ve *validation.Error) (secret *string) {
	if p.Name != nil {
		d.Name = checkText("name", *p.Name, MaxName, ve)
		if d.Name == "" {
			ve.Add("name", "is required")
		}
	}
	if p.URL != nil {
		switch d.Type {
		case TypeWebhook:
			u, err := s.guard.CheckURL(*p.URL)
			if err != nil {
				ve.Add("url", "%s", err.Error())
			} else {
				d.URL = u.String()
			}
		case TypeOwnSite:
			if *p.URL != "" {
				ve.Add("url", "an own_site destination publishes to the service's own receiver; it takes no url")
			}
		}
	}
	if p.SiteContentType != nil {
		switch {
		case d.Type != TypeOwnSite && *p.SiteContentType != "":
			ve.Add("siteContentType", "is for own_site destinations only")
		case d.Type == TypeOwnSite && !slices.Contains(SiteContentTypes, *p.SiteContentType):
			ve.Add("siteContentType", "%s", validation.OneOf(*p.SiteContentType, SiteContentTypes))
		default:
			d.SiteContentType = *p.SiteContentType
		}
	}
	if p.Secret != nil {
		switch {
		case d.Type == TypeOwnSite && *p.Secret != "":
			ve.Add("secret", "an own_site destination is signed with the service's site-content secret; it takes none")
		case *p.Secret != "":
			checkSecret(*p.Secret, ve)
		}
		secret = p.Secret
	}
	if p.DefaultAuthor != nil {
		d.DefaultAuthor = checkText("defaultAuthor", *p.DefaultAuthor, MaxAuthor, ve)
	}
	if p.IndexNowKey != nil {
		k := strings.TrimSpace(*p.IndexNowKey)
		if k != "" && !indexNowKeyRE.MatchString(k) {
			ve.Add("indexNowKey", "must be 8 to %d characters of a-z, A-Z, 0-9 and '-' (the IndexNow key format)", maxIndexNowKey)
		}
		d.IndexNowKey = k
	}
	if p.IndexNowHost != nil {
		h := strings.ToLower(strings.TrimSpace(*p.IndexNowHost))
		if h != "" && (len(h) > 253 || !hostRE.MatchString(h)) {
			ve.Add("indexNowHost", "must be a host name such as www.example.com (no scheme, port or path)")
		}
		d.IndexNowHost = h
	}
	if p.IndexNowKeyLocation != nil {
		loc := strings.TrimSpace(*p.IndexNowKeyLocation)
		if loc != "" {
			if _, err := (ssrf.Guard{}).CheckURL(loc); err != nil {
				ve.Add("indexNowKeyLocation", "%s", err.Error())
			}
		}
		d.IndexNowKeyLocation = loc
	}
	return secret
}

// finish checks what only the whole destination tells.
func finish(d *Destination, ve *validation.Error) {
	if d.Type == TypeWebhook && d.URL == "" && !ve.Has("url") {
		ve.Add("url", "is required for a webhook destination: an absolute http(s) URL")
	}
	if d.Type == TypeOwnSite && d.SiteContentType == "" {
		d.SiteContentType = defaultOwnSiteCT
	}
	if d.IndexNowKey != "" && d.IndexNowHost == "" && d.Type == TypeWebhook && !ve.Has("indexNowHost") {
		ve.Add("indexNowHost", "is required with indexNowKey: the host whose URLs are submitted")
	}
	if d.IndexNowKey == "" && (d.IndexNowHost != "" || d.IndexNowKeyLocation != "") && !ve.Has("indexNowKey") {
		ve.Add("indexNowKey", "is required with indexNowHost or indexNowKeyLocation")
	}
}

// Create stores a destination and returns it. At most MaxPerTenant per
// tenant, also under concurrent creates (a counter changes in the same
// transaction).
func (s *Service) Create(ctx context.Context, tenantID int32, n New) (Destination, error) {
	var ve validation.Error
	if !slices.Contains(Types, n.Type) {
		ve.Add("type", "%s", validation.OneOf(n.Type, Types))
	}
	now := s.now().UTC()
	d := Destination{ID: idPrefix + ids.ULID(now), TenantID: tenantID, Type: n.Type, CreatedAt: now, UpdatedAt: now}
	if (&ve).Has("type") {
		return Destination{}, ve.Err()
	}
	url := n.URL
	secret := s.apply(&d, Patch{Name: &n.Name, URL: &url, Settings: n.Settings}, &ve)
	finish(&d, &ve)
	if err := ve.Err(); err != nil {
		return Destination{}, err
	}
	if err := s.seal(ctx, &d, secret); err != nil {
		return Destination{}, err
	}
	put, err := s.docs().PutOp(d, store.NotExists())
	if err != nil {
		return Destination{}, err
	}
	err = s.tbl.TransactWrite(ctx,
		store.UpdateOp(countKey(tenantID), store.Update{Add: map[string]int64{"n": 1}},
			store.Or(store.AttrNotExists("n"), store.Lt("n", MaxPerTenant))),
		put)
	var txe *store.TxConditionError
	switch {
	case errors.As(err, &txe) && txe.Index == 0:
		return Destination{}, &validation.LimitError{What: "destinations", Max: MaxPerTenant}
	case err != nil:
		return Destination{}, fmt.Errorf("destinations: create: %w", err)
	}
	return d, nil
}

func (s *Service) seal(ctx context.Context, d *Destination, secret *string) error {
	if secret == nil {
		return nil
	}
	if *secret == "" {
		d.SealedSecret = ""
		return nil
	}
	sealed, err := s.box.Seal(ctx, d.TenantID, d.ID, *secret)
	if err != nil {
		return fmt.Errorf("destinations: seal secret: %w", err)
	}
	d.SealedSecret = sealed
	return nil
}

// List returns the tenant's destinations, oldest first.
func (s *Service) List(ctx context.Context, tenantID int32) ([]Destination, error) {
	return s.docs().Query(ctx, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(skPrefix)})
}

// Get returns one destination of the tenant, or ErrNotFound.
func (s *Service) Get(ctx context.Context, tenantID int32, id string) (Destination, error) {
	snap, err := s.read(ctx, tenantID, id)
	return snap.Value, err
}

func (s *Service) read(ctx context.Context, tenantID int32, id string) (store.Snapshot[Destination], error) {
	if !strings.HasPrefix(id, idPrefix) || len(id) > 64 {
		return store.Snapshot[Destination]{}, ErrNotFound
	}
	return s.docs().Read(ctx, Key(tenantID, id))
}

// Secret returns the destination's secret in clear ("" when unsigned),
// for the publish step that signs with it.
func (s *Service) Secret(ctx context.Context, d Destination) (string, error) {
	if d.SealedSecret == "" {
		return "", nil
	}
	return s.box.Open(ctx, d.TenantID, d.ID, d.SealedSecret)
}

// ResealSecrets seals again, under the current key, every secret of the
// tenant's destinations sealed under an older one (after a key rotation),
// and returns how many it sealed. Each write is conditional on the
// document read, so a concurrent change is read again, never overwritten.
// A secret that cannot be opened (its key lost) is left as it is and
// counted in neither: its publishes fail until a new secret is set.
func (s *Service) ResealSecrets(ctx context.Context, tenantID int32) (int, error) {
	return s.docs().UpdateEach(ctx, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(skPrefix)},
		func(ctx context.Context, d Destination) (Destination, bool, error) {
			if d.SealedSecret == "" || s.box.Current(d.SealedSecret) {
				return d, false, nil
			}
			secret, err := s.Secret(ctx, d)
			if errors.Is(err, secrets.ErrOpen) {
				return d, false, nil
			}
			if err == nil {
				err = s.seal(ctx, &d, &secret)
			}
			return d, err == nil, err
		})
}

// Update applies p; concurrent updates do not lose each other's changes
// (the write is conditional on the document read).
func (s *Service) Update(ctx context.Context, tenantID int32, id string, p Patch) (Destination, error) {
	for {
		snap, err := s.read(ctx, tenantID, id)
		if err != nil {
			return Destination{}, err
		}
		d := snap.Value
		var ve validation.Error
		secret := s.apply(&d, p, &ve)
		finish(&d, &ve)
		if err := ve.Err(); err != nil {
			return Destination{}, err
		}
		if err := s.seal(ctx, &d, secret); err != nil {
			return Destination{}, err
		}
		d.UpdatedAt = s.now().UTC()
		err = s.docs().Replace(ctx, snap, d)
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		if err != nil {
			return Destination{}, err
		}
		return d, nil
	}
}

// Delete removes the destination. Publishes already running keep the
// copy they read; later publishes to it are refused (404).
func (s *Service) Delete(ctx context.Context, tenantID int32, id string) error {
	if _, err := s.read(ctx, tenantID, id); err != nil {
		return err
	}
	err := s.tbl.TransactWrite(ctx,
		store.DeleteOp(Key(tenantID, id), store.Exists()),
		store.UpdateOp(countKey(tenantID), store.Update{Add: map[string]int64{"n": -1}}, store.Ge("n", 1)))
	var txe *store.TxConditionError
	if errors.As(err, &txe) && txe.Index == 0 {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("destinations: delete: %w", err)
	}
	return nil
}
