package dynamo_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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

// TestCreateTableAddsMissingIndex: a table made before GSI2 existed gets
// it, filled from the items already stored.
func TestCreateTableAddsMissingIndex(t *testing.T) {
	client := dynamotest.Start(t)
	ctx := t.Context()
	name := "old-" + dynamotest.NewTable(t, client) // a name of its own, deleted below
	s := func(a string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS}
	}
	ks := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(r), KeyType: types.KeyTypeRange}}
	}
	if _, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: &name, BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s(store.AttrPK), s(store.AttrSK), s(store.AttrGSI1PK), s(store.AttrGSI1SK)},
		KeySchema:            ks(store.AttrPK, store.AttrSK),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String(store.IndexGSI1),
			KeySchema: ks(store.AttrGSI1PK, store.AttrGSI1SK), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &name}) })
	tbl := dynamo.New(client, name)
	if err := tbl.Put(ctx, store.Item{store.AttrPK: "P", store.AttrSK: "1", store.AttrGSI2PK: "X", store.AttrGSI2SK: "1"}, store.Cond{}); err != nil {
		t.Fatal(err)
	}
	if err := dynamo.CreateTable(ctx, client, name); err != nil {
		t.Fatal(err)
	}
	p, err := tbl.Query(ctx, store.Query{Index: store.IndexGSI2, PK: "X"})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("GSI2 after the upgrade: %v %v", p.Items, err)
	}
}
