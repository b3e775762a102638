package secrets

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/datadir"
)

// KeyringFile is the local keyring's file in the data directory.
const KeyringFile = "secrets-key"

// ErrUnknownKey: an envelope names a key the keyring does not hold.
var ErrUnknownKey = errors.New("secrets: unknown key")

// Keyring is the local key-encryption keys (`brandlens serve`, `brandlens
// admin`): the file secrets-key of the data directory, private like the
// rest of it (package datadir), holding every key ever used and the
// primary one. The file is created on the first seal, written atomically,
// and a rotation adds a key without dropping the old ones.
type Keyring struct {
	dir string
	mu  sync.Mutex
	// file is the keyring as last read or written (nil: not yet read).
	file *keyringFile
}

type keyringFile struct {
	Primary string            `json:"primary"`
	Keys    map[string][]byte `json:"keys"`
}

// NewKeyring returns the keyring of data directory dir.
func NewKeyring(dir string) *Keyring { return &Keyring{dir: dir} }

// NewMemoryKeyring returns a keyring that lives in memory only: what it
// seals opens in this process alone (tests, and services built without
// keys of their own).
func NewMemoryKeyring() *Keyring { return &Keyring{file: &keyringFile{Keys: map[string][]byte{}}} }

// load reads the file (once); missing is (nil, nil). k.mu is held.
func (k *Keyring) load() (*keyringFile, error) {
	if k.file != nil {
		return k.file, nil
	}
	b, err := datadir.ReadFile(k.dir, KeyringFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("secrets: read the keyring: %w", err)
	}
	var f keyringFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("secrets: %s is not a keyring: %w", filepath.Join(k.dir, KeyringFile), err)
	}
	for id, key := range f.Keys {
		if len(key) != DataKeySize {
			return nil, fmt.Errorf("secrets: key %s of %s has %d bytes", id, filepath.Join(k.dir, KeyringFile), len(key))
		}
	}
	if _, ok := f.Keys[f.Primary]; !ok {
		return nil, fmt.Errorf("secrets: %s names primary key %q, which it does not hold", filepath.Join(k.dir, KeyringFile), f.Primary)
	}
	k.file = &f
	return k.file, nil
}

// addKey adds a new key and makes it primary, writing the file; k.mu is held.
func (k *Keyring) addKey(f *keyringFile) (*keyringFile, error) {
	next := &keyringFile{Keys: map[string][]byte{}}
	if f != nil {
		maps.Copy(next.Keys, f.Keys)
	}
	key := make([]byte, DataKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("secrets: generate a key: %w", err)
	}
	var suffix [4]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return nil, fmt.Errorf("secrets: generate a key id: %w", err)
	}
	next.Primary = "local:" + time.Now().UTC().Format("20060102T150405Z") + "-" + base64.RawURLEncoding.EncodeToString(suffix[:])
	next.Keys[next.Primary] = key
	b, err := json.Marshal(next)
	if err != nil {
		return nil, err
	}
	if k.dir != "" {
		if err := datadir.Ensure(k.dir); err != nil {
			return nil, fmt.Errorf("secrets: %w", err)
		}
		if err := datadir.WriteFile(k.dir, KeyringFile, b); err != nil {
			return nil, fmt.Errorf("secrets: %w", err)
		}
	}
	k.file = next
	return next, nil
}

// Rotate adds a new primary key; secrets sealed under the older keys
// still open. It returns the new key's id.
func (k *Keyring) Rotate() (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	f, err := k.load()
	if err != nil {
		return "", err
	}
	if f, err = k.addKey(f); err != nil {
		return "", err
	}
	return f.Primary, nil
}

// KeyIDs lists the keyring's keys.
func (k *Keyring) KeyIDs() ([]string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	f, err := k.load()
	if err != nil || f == nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(f.Keys)), nil
}

// DataKey implements Keys: a random data key wrapped with AES-GCM under
// the primary key (created on first use), ec and kid as associated data.
func (k *Keyring) DataKey(_ context.Context, ec map[string]string) (string, []byte, []byte, error) {
	k.mu.Lock()
	f, err := k.load()
	if err == nil && (f == nil || f.Primary == "") {
		f, err = k.addKey(f)
	}
	k.mu.Unlock()
	if err != nil {
		return "", nil, nil, err
	}
	key := make([]byte, DataKeySize)
	if _, err := rand.Read(key); err != nil {
		return "", nil, nil, fmt.Errorf("secrets: generate a data key: %w", err)
	}
	gcm, err := newGCM(f.Keys[f.Primary])
	if err != nil {
		return "", nil, nil, err
	}
	nonce := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", nil, nil, fmt.Errorf("secrets: nonce: %w", err)
	}
	return f.Primary, key, gcm.Seal(nonce, nonce, key, wrapAAD(f.Primary, ec)), nil
}

// Unwrap implements Keys.
func (k *Keyring) Unwrap(_ context.Context, kid string, wrapped []byte, ec map[string]string) ([]byte, error) {
	k.mu.Lock()
	f, err := k.load()
	k.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var kek []byte
	if f != nil {
		kek = f.Keys[kid]
	}
	if kek == nil {
		return nil, fmt.Errorf("%w %s: it is not in %s (restore the file it was sealed with)", ErrUnknownKey, kid, filepath.Join(k.dir, KeyringFile))
	}
	gcm, err := newGCM(kek)
	if err != nil {
		return nil, err
	}
	if len(wrapped) < gcm.NonceSize() {
		return nil, errors.New("secrets: wrapped key too short")
	}
	return gcm.Open(nil, wrapped[:gcm.NonceSize()], wrapped[gcm.NonceSize():], wrapAAD(kid, ec))
}

// Current implements Keys.
func (k *Keyring) Current(kid string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	f, err := k.load()
	return err == nil && f != nil && f.Primary == kid
}

// wrapAAD binds a wrapped data key to its key id and context.
func wrapAAD(kid string, ec map[string]string) []byte {
	keys := slices.Sorted(maps.Keys(ec))
	parts := []string{"brandlens-data-key", kid}
	for _, k := range keys {
		parts = append(parts, k, ec[k])
	}
	b, _ := json.Marshal(parts)
	return b
}
