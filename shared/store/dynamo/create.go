package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/brandlens/brandlens/shared/store"
)

// CreateTable creates the single table as template.yaml declares it (PK/SK,
// GSI1 on GSI1PK/GSI1SK and GSI2 on GSI2PK/GSI2SK, both projecting all
// attributes, on-demand billing), waits until it is active and turns on TTL
// on expiresAt. A table that already exists is left as it is, with TTL
// turned on if it was off and an index it lacks added (DynamoDB backfills
// it from the items that carry its attributes).
func CreateTable(ctx context.Context, client *dynamodb.Client, name string) error {
	str := func(attr string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(attr), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(hash, rng string) []types.KeySchemaElement {
		return []types.KeySchemaElement{
			{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange},
		}
	}
	attrs := []types.AttributeDefinition{str(store.AttrPK), str(store.AttrSK)}
	var gsis []types.GlobalSecondaryIndex
	for _, ix := range store.Indexes {
		h, r := store.IndexKeyAttrs(ix)
		attrs = append(attrs, str(h), str(r))
		gsis = append(gsis, types.GlobalSecondaryIndex{
			IndexName:  aws.String(ix),
			KeySchema:  key(h, r),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:              &name,
		BillingMode:            types.BillingModePayPerRequest,
		AttributeDefinitions:   attrs,
		KeySchema:              key(store.AttrPK, store.AttrSK),
		GlobalSecondaryIndexes: gsis,
	})
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return fmt.Errorf("store: create table %s: %w", name, err)
	}
	if err := waitActive(ctx, client, name); err != nil {
		return err
	}
	if err := addMissingIndexes(ctx, client, name, attrs, gsis); err != nil {
		return err
	}
	ttl, err := client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: &name})
	if err != nil {
		return fmt.Errorf("store: describe TTL of %s: %w", name, err)
	}
	if d := ttl.TimeToLiveDescription; d != nil && aws.ToString(d.AttributeName) == store.AttrExpiresAt &&
		(d.TimeToLiveStatus == types.TimeToLiveStatusEnabled || d.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		return nil
	}
	_, err = client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: &name,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(store.AttrExpiresAt), Enabled: aws.Bool(true),
		},
	})
	if err != nil {
		return fmt.Errorf("store: enable TTL on %s: %w", name, err)
	}
	return nil
}

// addMissingIndexes adds the indexes a table created by an older release
// lacks, one per update as DynamoDB requires.
func addMissingIndexes(ctx context.Context, client *dynamodb.Client, name string, attrs []types.AttributeDefinition, gsis []types.GlobalSecondaryIndex) error {
	out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
	if err != nil {
		return fmt.Errorf("store: describe table %s: %w", name, err)
	}
	have := map[string]bool{}
	for _, g := range out.Table.GlobalSecondaryIndexes {
		have[aws.ToString(g.IndexName)] = true
	}
	for _, g := range gsis {
		if have[aws.ToString(g.IndexName)] {
			continue
		}
		_, err := client.UpdateTable(ctx, &dynamodb.UpdateTableInput{
			TableName:            &name,
			AttributeDefinitions: attrs,
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
				IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection,
			}}},
		})
		if err != nil {
			return fmt.Errorf("store: add index %s to %s: %w", aws.ToString(g.IndexName), name, err)
		}
		if err := waitActive(ctx, client, name); err != nil {
			return err
		}
	}
	return nil
}

// waitActive polls quickly at first (DynamoDB Local is ready at once), then
// backs off to the pace of the real service.
func waitActive(ctx context.Context, client *dynamodb.Client, name string) error {
	pause := 20 * time.Millisecond
	for {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
		if err != nil {
			var nf *types.ResourceNotFoundException
			if !errors.As(err, &nf) {
				return fmt.Errorf("store: describe table %s: %w", name, err)
			}
		} else if active(out.Table) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("store: wait for table %s: %w", name, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

func active(t *types.TableDescription) bool {
	if t == nil || t.TableStatus != types.TableStatusActive {
		return false
	}
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	return true
}
