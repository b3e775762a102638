package secrets

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// KMSAPI is what the KMS keys need of the AWS SDK's KMS client.
type KMSAPI interface {
	GenerateDataKey(ctx context.Context, in *kms.GenerateDataKeyInput, opts ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error)
	Decrypt(ctx context.Context, in *kms.DecryptInput, opts ...func(*kms.Options)) (*kms.DecryptOutput, error)
}

// KMS are key-encryption keys in AWS KMS: data keys come from
// GenerateDataKey under keyID and are unwrapped with Decrypt, both with
// the binding as encryption context (so the key policy can condition on
// it, and CloudTrail shows which record a call was for). The envelope's
// kid is the key ARN KMS reports; Decrypt is asked for that key, so
// envelopes sealed before the configured key changed still open where the
// old key's policy allows it. KMS's own yearly rotation keeps the ARN and
// needs nothing here.
type KMS struct {
	client KMSAPI
	keyID  string
}

// NewKMS returns the keys of KMS key keyID (id, ARN or alias).
func NewKMS(client KMSAPI, keyID string) *KMS { return &KMS{client: client, keyID: keyID} }

// DataKey implements Keys.
func (k *KMS) DataKey(ctx context.Context, ec map[string]string) (string, []byte, []byte, error) {
	out, err := k.client.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{
		KeyId: aws.String(k.keyID), KeySpec: types.DataKeySpecAes256, EncryptionContext: ec})
	if err != nil {
		return "", nil, nil, fmt.Errorf("kms GenerateDataKey: %w", err)
	}
	kid := aws.ToString(out.KeyId)
	if kid == "" {
		kid = k.keyID
	}
	return kid, out.Plaintext, out.CiphertextBlob, nil
}

// Unwrap implements Keys.
func (k *KMS) Unwrap(ctx context.Context, kid string, wrapped []byte, ec map[string]string) ([]byte, error) {
	out, err := k.client.Decrypt(ctx, &kms.DecryptInput{KeyId: aws.String(kid), CiphertextBlob: wrapped, EncryptionContext: ec})
	if err != nil {
		return nil, fmt.Errorf("kms Decrypt: %w", err)
	}
	return out.Plaintext, nil
}

// Current implements Keys: kid is the configured key, by ARN or id. With
// an alias configured the key behind it is not known here, so every
// envelope counts as current.
func (k *KMS) Current(kid string) bool {
	return kid == k.keyID || strings.HasSuffix(kid, ":key/"+k.keyID) || strings.HasPrefix(k.keyID, "alias/") ||
		strings.Contains(k.keyID, ":alias/")
}
