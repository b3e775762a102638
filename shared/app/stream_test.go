package app

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"testing"

	awsevents "github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// failingTable fails every query, as an unreachable table would.
type failingTable struct{ store.Table }

func (failingTable) Query(context.Context, store.Query) (store.Page, error) {
	return store.Page{}, errors.New("table unreachable")
}

func streamFixture(t testing.TB) []byte {
	b, err := os.ReadFile("../../events/dynamodb-stream-outbox.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A failure reports its record, so that Lambda retries from there.
func TestStreamFailureReportsTheRecord(t *testing.T) {
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	wh := webhooks.New(failingTable{embedded.NewMemory()}, webhooks.Options{Logger: log})
	var batch awsevents.DynamoDBEvent
	if err := json.Unmarshal(streamFixture(t), &batch); err != nil {
		t.Fatal(err)
	}
	resp := handleStream(context.Background(), wh, log, batch)
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != batch.Records[0].Change.SequenceNumber {
		t.Errorf("failures %+v, want the first record's sequence number", resp.BatchItemFailures)
	}
}

// FuzzFanoutHandler: whatever a trigger sends worker-fanout, it answers or
// fails, and never panics; a stream batch answers with the failures list.
func FuzzFanoutHandler(f *testing.F) {
	f.Add(streamFixture(f))
	f.Add([]byte(`{"version":"0","detail-type":"Scheduled Event","detail":{}}`))
	f.Add([]byte(`{"Records":[{"eventName":"INSERT","dynamodb":{"NewImage":{"kind":{"S":"event"},"GSI1PK":{"S":"OUTBOX#pending"},"doc":{"S":"{"}}}}]}`))
	f.Add([]byte(`{"Records":[{"eventName":"INSERT","dynamodb":{"NewImage":{"kind":{"N":"1"}}}}]}`))
	f.Add([]byte(`[]`))
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	h := fanoutHandler(webhooks.New(embedded.NewMemory(), webhooks.Options{Logger: log}), log)
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := h(context.Background(), raw)
		var probe struct {
			Records []json.RawMessage `json:"Records"`
		}
		if err == nil && json.Unmarshal(raw, &probe) == nil && len(probe.Records) > 0 {
			if _, ok := out.(awsevents.DynamoDBEventResponse); !ok {
				t.Fatalf("stream batch answered %#v", out)
			}
		}
	})
}

// The stream takes events pending under a shard of the key and under the
// key itself (written before the sharding), and nothing else.
func TestPendingEventOfShardedKeys(t *testing.T) {
	for _, c := range []struct {
		pk   string
		want bool
	}{
		{store.ShardedPK("OUTBOX#pending", "evt_1"), true},
		{"OUTBOX#pending#15", true},
		{"OUTBOX#pending", true},
		{"OUTBOX#pending#x", false},
		{"OUTBOX#done", false},
		{"", false},
	} {
		t.Run(c.pk, func(t *testing.T) {
			img := map[string]awsevents.DynamoDBAttributeValue{
				"kind": awsevents.NewStringAttribute("event"),
				"doc":  awsevents.NewStringAttribute(`{"event_id":"evt_1","type":"credit.low","tenant_id":1}`),
			}
			if c.pk != "" {
				img[store.AttrGSI1PK] = awsevents.NewStringAttribute(c.pk)
			}
			_, ok, err := pendingEventOf(awsevents.DynamoDBEventRecord{EventName: "INSERT", Change: awsevents.DynamoDBStreamRecord{NewImage: img}})
			if err != nil || ok != c.want {
				t.Errorf("pending %v (%v), want %v", ok, err, c.want)
			}
		})
	}
}
