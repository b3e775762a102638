package dynamo_test

import (
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Table {
		client := dynamotest.Start(t)
		return dynamo.New(client, dynamotest.NewTable(t, client), dynamo.WithClock(now))
	})
}

// TestCreateTableTwice: creating an existing table is not an error, so the
// admin CLI may run it on every deploy.
func TestCreateTableTwice(t *testing.T) {
	client := dynamotest.Start(t)
	name := dynamotest.NewTable(t, client)
	if err := dynamo.CreateTable(t.Context(), client, name); err != nil {
		t.Fatal(err)
	}
}
