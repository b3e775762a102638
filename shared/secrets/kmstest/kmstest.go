// Package kmstest is a small AWS KMS for tests: an HTTP server speaking
// KMS's JSON protocol (TrentService.GenerateDataKey and Decrypt) as the
// AWS SDK sends it, with real AES-GCM wrapping, KMS's checks (the key a
// blob names, the encryption context it was made with) and its error
// shapes. tools/ has no KMS emulator; this is enough to test the adapter
// and the assembled functions end to end.
package kmstest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/kms"
)

// Region and Account of the keys' ARNs.
const (
	Region  = "us-east-1"
	Account = "111122223333"
)

// Server is the fake KMS.
type Server struct {
	URL string

	mu    sync.Mutex
	keys  map[string][]byte // key ARN → its key material
	deny  map[string]bool   // operation names refused (AccessDeniedException)
	calls map[string]int
}

// New starts a fake KMS holding one key, whose ARN it returns, for the
// rest of t.
func New(t testing.TB) (*Server, string) {
	s := &Server{keys: map[string][]byte{}, deny: map[string]bool{}, calls: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s, s.AddKey("1234abcd-12ab-34cd-56ef-1234567890ab")
}

// AddKey creates key id and returns its ARN.
func (s *Server) AddKey(id string) string {
	material := make([]byte, 32)
	if _, err := rand.Read(material); err != nil {
		panic(err)
	}
	arn := "arn:aws:kms:" + Region + ":" + Account + ":key/" + id
	s.mu.Lock()
	s.keys[arn] = material
	s.mu.Unlock()
	return arn
}

// Deny makes operation op ("GenerateDataKey", "Decrypt") fail with
// AccessDeniedException, as a key policy without it would.
func (s *Server) Deny(op string) { s.mu.Lock(); s.deny[op] = true; s.mu.Unlock() }

// Calls returns how often each operation was called.
func (s *Server) Calls() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.calls)
}

// Client is an SDK client of the fake.
func (s *Server) Client() *kms.Client {
	return kms.NewFromConfig(aws.Config{Region: Region, Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""),
		BaseEndpoint: aws.String(s.URL)})
}

// resolve finds a key by id or ARN (no aliases); "" when unknown.
func (s *Server) resolve(keyID string) string {
	for arn := range s.keys {
		if keyID == arn || strings.HasSuffix(arn, ":key/"+keyID) {
			return arn
		}
	}
	return ""
}

type request struct {
	KeyId             string
	KeySpec           string
	NumberOfBytes     int
	CiphertextBlob    []byte
	EncryptionContext map[string]string
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	op, _ := strings.CutPrefix(r.Header.Get("X-Amz-Target"), "TrentService.")
	fail := func(typ, msg string) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"__type": typ, "message": msg})
	}
	if r.Method != http.MethodPost || r.Header.Get("Authorization") == "" || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-amz-json-1.1") {
		fail("InvalidSignatureException", "not a signed KMS JSON 1.1 request")
		return
	}
	var in request
	if err := json.Unmarshal(body, &in); err != nil {
		fail("SerializationException", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[op]++
	if s.deny[op] {
		fail("AccessDeniedException", "User is not authorized to perform: kms:"+op)
		return
	}
	reply := func(v map[string]any) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		json.NewEncoder(w).Encode(v)
	}
	switch op {
	case "GenerateDataKey":
		arn := s.resolve(in.KeyId)
		if arn == "" {
			fail("NotFoundException", "Key '"+in.KeyId+"' does not exist")
			return
		}
		if in.KeySpec != "AES_256" && in.NumberOfBytes != 32 {
			fail("ValidationException", "KeySpec or NumberOfBytes is required")
			return
		}
		plain := make([]byte, 32)
		rand.Read(plain)
		reply(map[string]any{"KeyId": arn, "Plaintext": plain, "CiphertextBlob": s.wrap(arn, plain, in.EncryptionContext)})
	case "Decrypt":
		arn, plain, ok := s.unwrap(in.CiphertextBlob, in.EncryptionContext)
		switch {
		case !ok:
			fail("InvalidCiphertextException", "")
		case in.KeyId != "" && s.resolve(in.KeyId) != arn:
			fail("IncorrectKeyException", "The key ID in the request does not identify a CMK that can perform this operation.")
		default:
			reply(map[string]any{"KeyId": arn, "Plaintext": plain, "EncryptionAlgorithm": "SYMMETRIC_DEFAULT"})
		}
	default:
		fail("UnknownOperationException", "unknown operation "+op)
	}
}

// A blob is: the key ARN's length (2 bytes), the ARN, a nonce and the
// plaintext sealed under the key with the encryption context as
// associated data — like KMS, a blob names its key and opens only with
// the context it was made with.
func (s *Server) wrap(arn string, plain []byte, ec map[string]string) []byte {
	gcm := s.gcm(arn)
	nonce := make([]byte, gcm.NonceSize())
	rand.Read(nonce)
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint16(len(arn)))
	b.WriteString(arn)
	b.Write(gcm.Seal(nonce, nonce, plain, encryptionContext(ec)))
	return b.Bytes()
}

func (s *Server) unwrap(blob []byte, ec map[string]string) (arn string, plain []byte, ok bool) {
	if len(blob) < 2 {
		return "", nil, false
	}
	n := int(binary.BigEndian.Uint16(blob))
	if len(blob) < 2+n {
		return "", nil, false
	}
	arn, rest := string(blob[2:2+n]), blob[2+n:]
	if _, known := s.keys[arn]; !known {
		return "", nil, false
	}
	gcm := s.gcm(arn)
	if len(rest) < gcm.NonceSize() {
		return "", nil, false
	}
	plain, err := gcm.Open(nil, rest[:gcm.NonceSize()], rest[gcm.NonceSize():], encryptionContext(ec))
	return arn, plain, err == nil
}

func (s *Server) gcm(arn string) cipher.AEAD {
	block, _ := aes.NewCipher(s.keys[arn])
	gcm, _ := cipher.NewGCM(block)
	return gcm
}

func encryptionContext(ec map[string]string) []byte {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(ec)) {
		parts = append(parts, k, ec[k])
	}
	b, _ := json.Marshal(parts)
	return b
}
